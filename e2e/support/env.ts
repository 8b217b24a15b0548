/** The running stack under test; the web app proxies /api/* to the API on the same origin. */
export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
