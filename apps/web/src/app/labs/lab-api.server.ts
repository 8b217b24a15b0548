import 'server-only';
import {
  ZLabLastCheckResponse,
  ZLabListResponse,
  ZLabView,
  ZScenarioListResponse,
  type TLabLastCheckResponse,
  type TLabListResponse,
  type TLabView,
  type TScenarioListResponse,
} from '@kubejourney/contracts';
import { headers } from 'next/headers';
import { cache } from 'react';
import { resolveApiUrl } from '@/lib/api-url.util';

// Server-side reads of the labs API with the visitor's cookies, so the lab pages render with data
// instead of a spinner. Failures come back as values the page can explain.

const TIMEOUT_MS = 5000;

export type TServerRead<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

async function read<T>(
  path: string,
  schema: { safeParse(input: unknown): { success: true; data: T } | { success: false } },
): Promise<TServerRead<T>> {
  const cookie = (await headers()).get('cookie') ?? '';
  try {
    const response = await fetch(`${resolveApiUrl()}${path}`, {
      headers: { cookie, accept: 'application/json' },
      cache: 'no-store',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message =
        (json as { error?: { message?: string } } | undefined)?.error?.message ??
        `HTTP ${response.status}`;
      return { ok: false, status: response.status, message };
    }
    const parsed = schema.safeParse(json);
    return parsed.success
      ? { ok: true, data: parsed.data }
      : { ok: false, status: 502, message: 'unexpected response from the API' };
  } catch (error) {
    return { ok: false, status: 0, message: (error as Error).message };
  }
}

export function readLabs(): Promise<TServerRead<TLabListResponse>> {
  return read('/api/labs', ZLabListResponse);
}

// Memoized per request: a lab page's metadata and its body read the same lab and scenarios.
export const readLab = cache((id: string): Promise<TServerRead<TLabView>> =>
  read(`/api/labs/${encodeURIComponent(id)}`, ZLabView),
);

export const readScenarios = cache((): Promise<TServerRead<TScenarioListResponse>> =>
  read('/api/labs/scenarios', ZScenarioListResponse),
);

/** A scenario lab's latest graded attempt ({last: null} before the first check). */
export function readLastCheck(id: string): Promise<TServerRead<TLabLastCheckResponse>> {
  return read(`/api/labs/${encodeURIComponent(id)}/check`, ZLabLastCheckResponse);
}
