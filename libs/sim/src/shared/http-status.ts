// Reason phrases of the HTTP status codes the simulated apiserver answers with (Go's
// net/http StatusText), for the apiserver's trace and kubectl's -v output; code 0 is a request
// that never reached a running apiserver.
const STATUS_TEXT: Readonly<Record<number, string>> = {
  0: 'connection refused',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(code: number): string {
  return STATUS_TEXT[code] ?? '';
}
