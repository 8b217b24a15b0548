import type { TChapter, TMessages } from '@kubejourney/content';
import type { TColourClasses } from '@/lib/colour-classes.util';
import { ChapterBlock } from './chapter-block';
import { ChapterQuiz } from './chapter-quiz-client';
import type { TCommandMode } from './command-lines';

type TProps = {
  chapter: TChapter;
  messages: TMessages;
  colours: TColourClasses;
  mode: TCommandMode;
  /** h2 sections on the chapter page, h3 inside the lab view (whose chapter title is an h2) */
  level: 2 | 3;
};

/**
 * The sections and the quiz of a chapter. It is a size container: blocks lay out by the width they
 * get (a full page or the lab's narrow lesson pane), not by the window's.
 */
export function ChapterBody({ chapter, messages, colours, mode, level }: TProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const isPage = level === 2;
  const headingClass = `font-semibold tracking-tight text-stone-950 ${isPage ? 'text-2xl' : 'text-lg'}`;
  const gap = isPage ? 'mt-12' : 'mt-7 first:mt-2';
  return (
    <div className="@container">
      {chapter.sections.map((section) => (
        <section key={section.id} aria-labelledby={section.id} className={gap}>
          <Heading id={section.id} className={headingClass}>
            {section.heading}
          </Heading>
          <div className={`${isPage ? 'mt-4 space-y-5' : 'mt-3 space-y-4'}`}>
            {section.blocks.map((block) => (
              <ChapterBlock
                key={block.id}
                block={block}
                messages={messages}
                colours={colours}
                mode={mode}
              />
            ))}
          </div>
        </section>
      ))}

      <section aria-labelledby="quiz" className={isPage ? 'mt-14' : 'mt-10'}>
        <Heading id="quiz" className={headingClass}>
          {messages.chapter.quiz}
        </Heading>
        <div className="mt-4">
          <ChapterQuiz questions={chapter.quiz} messages={messages.chapter} />
        </div>
      </section>
    </div>
  );
}
