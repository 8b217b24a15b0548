export * from './course/metro-line.schema';
export * from './course/metro-line.data';
export * from './i18n/messages.schema';
export * from './i18n/messages';
export * from './i18n/format-message.util';
export { MESSAGES_EN } from './i18n/messages.en';
export { MESSAGES_ZH_TW } from './i18n/messages.zh-tw';
export * from './chapters';
export * from './scenarios';
