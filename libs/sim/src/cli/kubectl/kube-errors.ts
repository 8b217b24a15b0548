// How kubectl prints apiserver errors (kubectl pkg/cmd/util/helpers.go, FIDELITY.md §4 and the
// Observed section): `Error from server (Reason): msg`, the 422 multi-line form, 401, and
// connection refused.

import type { Status } from '../../model';
import { isStatus } from '../../model';
import type { ApiResponse } from '../../client/api-client';

export function hostPort(server: string): string {
  return server.replace(/^https?:\/\//, '');
}

/** The stderr text for a failed response (ends with a newline). */
export function formatResponseError(
  res: ApiResponse,
  server: string,
  context?: {
    verb: 'creating' | 'applying' | 'patching' | 'deleting' | 'retrieving' | 'replacing';
    file: string;
    extra?: string;
  },
): string {
  if (res.code === 0) {
    return `The connection to the server ${hostPort(server)} was refused - did you specify the right host or port?\n`;
  }
  const st: Status = isStatus(res.body)
    ? res.body
    : {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: typeof res.body === 'string' ? res.body : 'unknown',
        reason: '',
        code: res.code,
      };
  if (st.code === 401 || st.reason === 'Unauthorized') {
    return 'error: You must be logged in to the server (Unauthorized)\n';
  }
  if (st.reason === 'Invalid' && st.details) {
    const head =
      st.details.name !== undefined
        ? `The ${st.details.kind ?? 'request'} "${st.details.name}" is invalid: `
        : 'The request is invalid: ';
    const causes = st.details.causes ?? [];
    if (causes.length > 0) {
      return `${head}\n${causes.map((c) => `* ${c.field ? `${c.field}: ` : ''}${c.message ?? ''}`).join('\n')}\n`;
    }
    return `${head.trimEnd()} ${st.message ?? ''}\n`.replace(/ \n$/, '\n');
  }
  const ctx = context ? `error when ${context.verb} "${context.file}"${context.extra ?? ''}: ` : '';
  const prefix = st.reason ? `Error from server (${st.reason}): ` : 'Error from server: ';
  return `${prefix}${ctx}${st.message ?? ''}\n`;
}
