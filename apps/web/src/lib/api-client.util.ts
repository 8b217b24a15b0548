import { ZErrorBody } from '@kubejourney/contracts';

// Browser-side calls to our own origin's /api (proxied to the NestJS API). Every response is
// checked with a zod schema: a body we do not understand is an error, never a half-trusted value.

export type TApiFailure =
  | {
      kind: 'api';
      status: number;
      code: string;
      message: string;
      fields?: Record<string, string>;
      retryAfterSeconds?: number;
    }
  | { kind: 'network' }
  | { kind: 'unexpected'; status: number };

export type TApiResult<T> =
  { ok: true; status: number; data: T } | { ok: false; error: TApiFailure };

/** Any zod schema (or anything with the same safeParse contract). */
type TSchema<T> = {
  safeParse(input: unknown): { success: true; data: T } | { success: false };
};

type TFetch = (input: string, init?: RequestInit) => Promise<Response>;

export async function callApi<T>(
  path: string,
  options: { method: string; body?: unknown; schema?: TSchema<T> },
  fetchImpl: TFetch = (input, init) => fetch(input, init),
): Promise<TApiResult<T>> {
  let response: Response;
  try {
    response = await fetchImpl(path, {
      method: options.method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    return { ok: false, error: { kind: 'network' } };
  }

  const json: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    if (!options.schema) return { ok: true, status: response.status, data: undefined as T };
    const parsed = options.schema.safeParse(json);
    return parsed.success
      ? { ok: true, status: response.status, data: parsed.data }
      : { ok: false, error: { kind: 'unexpected', status: response.status } };
  }

  const parsed = ZErrorBody.safeParse(json);
  if (!parsed.success) return { ok: false, error: { kind: 'unexpected', status: response.status } };
  const retryAfterHeader = Number(response.headers.get('retry-after'));
  const retryAfterSeconds =
    parsed.data.error.retryAfterSeconds ??
    (Number.isFinite(retryAfterHeader) && retryAfterHeader > 0 ? retryAfterHeader : undefined);
  return {
    ok: false,
    error: {
      kind: 'api',
      status: response.status,
      code: parsed.data.error.code,
      message: parsed.data.error.message,
      ...(parsed.data.error.fields ? { fields: parsed.data.error.fields } : {}),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    },
  };
}
