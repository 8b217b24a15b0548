// `curl localhost:8001/...` while `kubectl proxy` runs: the proxy forwards the path to the
// apiserver as the kubeconfig user; the apiserver pretty-prints JSON for curl's User-Agent.

import { RESOURCES } from '../../model';
import type { LabRequest } from '../../lab/lab-types';
import type { CommandResult } from '../shell/command-types';
import type { TerminalContext } from '../terminal-context';
import { ADMIN_USER } from '../kubectl/kubeconfig';

export function parseApiPath(path: string): LabRequest | null {
  const [p, q] = path.split('?', 2) as [string, string | undefined];
  const seg = p.split('/').filter(Boolean);
  let i = 0;
  if (seg[0] === 'api' && seg[1] === 'v1') i = 2;
  else if (seg[0] === 'apis' && seg.length >= 3) i = 3;
  else return null;
  const group = seg[0] === 'api' ? '' : (seg[1] as string);
  let namespace: string | undefined;
  if (seg[i] === 'namespaces' && seg.length > i + 2) {
    namespace = seg[i + 1];
    i += 2;
  }
  const resource = seg[i];
  const info = RESOURCES.find((r) => r.resource === resource && r.group === group);
  if (!info) return null;
  const name = seg[i + 1];
  const sub = seg[i + 2];
  const query: LabRequest['query'] = {};
  for (const kv of (q ?? '').split('&').filter(Boolean)) {
    const [k, v] = kv.split('=', 2) as [string, string | undefined];
    if (k === 'labelSelector') query.labelSelector = decodeURIComponent(v ?? '');
    if (k === 'fieldSelector') query.fieldSelector = decodeURIComponent(v ?? '');
  }
  return {
    verb: name ? 'get' : 'list',
    resource: info.resource,
    namespace,
    name,
    subresource: sub,
    query,
  };
}

export function proxiedApiCall(t: TerminalContext, path: string): CommandResult {
  const req = parseApiPath(path);
  if (!req) {
    return {
      stdout: `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }, null, 2)}\n`,
      stderr: '',
      exitCode: 0,
    };
  }
  const res = t.lab.request(ADMIN_USER, req) as { code: number; body: unknown };
  if (res.code === 0)
    return {
      stdout:
        'Error while proxying request: dial tcp 172.18.0.2:6443: connect: connection refused\n',
      stderr: '',
      exitCode: 0,
    };
  const body = res.body as Record<string, unknown>;
  return {
    stdout: typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`,
    stderr: '',
    exitCode: 0,
  };
}
