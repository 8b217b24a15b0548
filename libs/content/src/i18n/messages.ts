import type { TLocale } from '@kubejourney/contracts';
import { MESSAGES_EN } from './messages.en';
import type { TMessages } from './messages.schema';
import { MESSAGES_ZH_TW } from './messages.zh-tw';

export const MESSAGES: Readonly<Record<TLocale, TMessages>> = {
  'zh-TW': MESSAGES_ZH_TW,
  en: MESSAGES_EN,
};

export function getMessages(locale: TLocale): TMessages {
  return MESSAGES[locale];
}
