import type { TLocale } from '@kubejourney/contracts';
import type { TChapter, TChapterSlug } from './chapter.schema';
import { CONTROLLER_MANAGER_EN } from './text/controller-manager.en';
import { CONTROLLER_MANAGER_ZH_TW } from './text/controller-manager.zh-tw';
import { ETCD_EN } from './text/etcd.en';
import { ETCD_ZH_TW } from './text/etcd.zh-tw';
import { KUBE_APISERVER_EN } from './text/kube-apiserver.en';
import { KUBE_APISERVER_ZH_TW } from './text/kube-apiserver.zh-tw';
import { KUBE_PROXY_EN } from './text/kube-proxy.en';
import { KUBE_PROXY_ZH_TW } from './text/kube-proxy.zh-tw';
import { KUBE_SCHEDULER_EN } from './text/kube-scheduler.en';
import { KUBE_SCHEDULER_ZH_TW } from './text/kube-scheduler.zh-tw';
import { KUBECTL_EN } from './text/kubectl.en';
import { KUBECTL_ZH_TW } from './text/kubectl.zh-tw';
import { KUBELET_EN } from './text/kubelet.en';
import { KUBELET_ZH_TW } from './text/kubelet.zh-tw';
import { PROLOGUE_EN } from './text/prologue.en';
import { PROLOGUE_ZH_TW } from './text/prologue.zh-tw';
import { RECAP_EN } from './text/recap.en';
import { RECAP_ZH_TW } from './text/recap.zh-tw';

// The chapters, one per stop of the metro line, in line order (the METRO_LINE stop ids). Each
// locale is its own document, written to read naturally; a test holds both to one skeleton.

export const CHAPTERS: Readonly<Record<TLocale, readonly TChapter[]>> = {
  'zh-TW': [
    PROLOGUE_ZH_TW,
    KUBECTL_ZH_TW,
    KUBE_APISERVER_ZH_TW,
    ETCD_ZH_TW,
    CONTROLLER_MANAGER_ZH_TW,
    KUBE_SCHEDULER_ZH_TW,
    KUBELET_ZH_TW,
    KUBE_PROXY_ZH_TW,
    RECAP_ZH_TW,
  ],
  en: [
    PROLOGUE_EN,
    KUBECTL_EN,
    KUBE_APISERVER_EN,
    ETCD_EN,
    CONTROLLER_MANAGER_EN,
    KUBE_SCHEDULER_EN,
    KUBELET_EN,
    KUBE_PROXY_EN,
    RECAP_EN,
  ],
};

/** The chapter for a stop in a locale, or undefined when the slug has no chapter. */
export function findChapter(slug: string, locale: TLocale): TChapter | undefined {
  return CHAPTERS[locale].find((chapter) => chapter.slug === slug);
}

export function getChapter(slug: TChapterSlug, locale: TLocale): TChapter {
  const chapter = findChapter(slug, locale);
  if (!chapter) throw new Error(`no ${locale} chapter for "${slug}"`);
  return chapter;
}
