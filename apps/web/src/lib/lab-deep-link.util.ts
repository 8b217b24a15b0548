import { ZChapterSlug, type TChapterSlug } from '@kubejourney/content';
import type { TLabSummary } from '@kubejourney/contracts';

// Links between the chapters and the lab: /labs/<id>?chapter=<slug>&type=<command> opens a lab
// with a chapter in its lesson pane and, optionally, one command typed at the prompt (never run:
// the learner presses Enter). /labs/open?… picks or creates the lab first.

/** The chapter a lab shows when the link names none: the departure hall. */
export const DEFAULT_LAB_CHAPTER: TChapterSlug = 'prologue';

/** Longer than any chapter command (the etcdctl lines are ~170 characters), short enough for a URL. */
export const MAX_TYPED_COMMAND_LENGTH = 500;

export type TLabDeepLink = { chapter?: TChapterSlug; type?: string };

type TSearchValue = string | string[] | undefined;

const first = (value: TSearchValue): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * A command to put at the prompt, or undefined. Control characters are refused, not stripped: a
 * carriage return would press Enter for the learner, and an escape sequence would move the cursor.
 */
export function parseTypedCommand(value: TSearchValue): string | undefined {
  const text = first(value);
  if (!text || text.trim() === '' || text.length > MAX_TYPED_COMMAND_LENGTH) return undefined;
  const hasControl = [...text].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code < 0xa0);
  });
  return hasControl ? undefined : text;
}

/** `?chapter=` and `?type=` of a lab link; anything malformed is dropped rather than trusted. */
export function parseLabDeepLink(params: Record<string, TSearchValue>): TLabDeepLink {
  const chapter = ZChapterSlug.safeParse(first(params.chapter));
  const type = parseTypedCommand(params.type);
  return {
    ...(chapter.success ? { chapter: chapter.data } : {}),
    ...(type ? { type } : {}),
  };
}

/** What a link asks for; a stop slug is enough to build one (parsing checks it on the way in). */
type TLinkRequest = { chapter?: string; type?: string };

function query(link: TLinkRequest): string {
  const params = new URLSearchParams();
  if (link.chapter) params.set('chapter', link.chapter);
  if (link.type) params.set('type', link.type);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function buildLabHref(labId: string, link: TLinkRequest = {}): string {
  return `/labs/${encodeURIComponent(labId)}${query(link)}`;
}

/** The learner's lab, whichever it is: /labs/open decides on the server (or creates a sandbox). */
export function buildOpenLabHref(link: TLinkRequest = {}): string {
  return `/labs/open${query(link)}`;
}

/**
 * The lab a chapter opens in: the learner's most recently used sandbox, an active one before a
 * sleeping one (it wakes on visit, but an active one is what they just left). Exercise labs are
 * skipped: their faults would contradict what the chapter says. Undefined: create a sandbox.
 */
export function pickLabForChapter(labs: readonly TLabSummary[]): TLabSummary | undefined {
  const sandboxes = labs.filter((lab) => lab.kind === 'sandbox');
  const rank = (lab: TLabSummary) => (lab.status === 'active' ? 1 : 0);
  return [...sandboxes].sort(
    (a, b) => rank(b) - rank(a) || Date.parse(b.lastActiveAt) - Date.parse(a.lastActiveAt),
  )[0];
}
