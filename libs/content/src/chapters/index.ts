export * from './chapter.schema';
export * from './chapters.data';
export { CHAPTER_LAB_FILES } from './chapter-commands.data';
export { listCommands, listProse, countWords } from './chapter-text.util';
