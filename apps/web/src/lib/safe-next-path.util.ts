/**
 * Where to go after logging in. Only same-origin absolute paths are accepted: `//evil.example`,
 * `/\evil.example` and full URLs would turn the login form into an open redirect.
 */
export function safeNextPath(next: string | string[] | null | undefined, fallback = '/learn') {
  const value = Array.isArray(next) ? next[0] : next;
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return fallback;
  }
  // Control characters (including newlines) have no place in a path we redirect to.
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return fallback;
  }
  return value;
}
