/** Where the NestJS API listens when API_URL is not set (the API's own default port). */
export const DEFAULT_API_URL = 'http://127.0.0.1:4000';

/**
 * The API's origin, from API_URL. Read per request (not at build time) so one build can be pointed
 * at any API. A malformed value fails loudly instead of proxying to somewhere unexpected.
 */
export function resolveApiUrl(value: string | undefined = process.env.API_URL): string {
  const raw = value?.trim() || DEFAULT_API_URL;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`API_URL must be an http(s) URL, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, '');
}
