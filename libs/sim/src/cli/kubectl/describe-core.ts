// kubectl describe for core config objects, in describe.go's formats: ConfigMapDescriber,
// SecretDescriber (no Events), NamespaceDescriber (quota and LimitRange summary, no Events) and
// ServiceAccountDescriber.

import type { KubectlEnv } from './kubectl-env';
import { isOk, listItems } from './kubectl-env';
import type { DescribeWriter } from './describe-text';
import { annotationsMultiline, labelsMultiline } from './describe-text';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SA_TOKEN_TYPE = 'kubernetes.io/service-account-token';

function nameAndNamespace(w: DescribeWriter, o: Any): void {
  w.w(0, `Name:\t${o.metadata?.name}\n`);
  w.w(0, `Namespace:\t${o.metadata?.namespace}\n`);
  labelsMultiline(w, 'Labels', o.metadata?.labels);
  annotationsMultiline(w, o.metadata?.annotations);
}

/** Decoded length of base64 text (Secret.data travels base64-encoded). */
function base64Bytes(v: string): number {
  const s = v.replace(/\s/g, '');
  return Math.floor((s.length * 3) / 4) - (s.match(/=+$/)?.[0].length ?? 0);
}

function decodeBase64(v: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const ch of v.replace(/[\s=]/g, '')) {
    const i = alphabet.indexOf(ch);
    if (i < 0) continue;
    acc = (acc << 6) | i;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

export function describeConfigMap(w: DescribeWriter, cm: Any): void {
  nameAndNamespace(w, cm);
  w.w(0, '\nData\n====\n');
  for (const k of Object.keys(cm.data ?? {}).sort()) {
    w.w(0, `${k}:\n----\n`);
    w.w(0, `${cm.data[k]}\n`);
    w.w(0, '\n');
  }
  w.w(0, '\nBinaryData\n====\n');
  for (const k of Object.keys(cm.binaryData ?? {}).sort())
    w.w(0, `${k}: ${base64Bytes(String(cm.binaryData[k]))} bytes\n`);
  w.w(0, '\n');
}

export function describeSecret(w: DescribeWriter, secret: Any): void {
  nameAndNamespace(w, secret);
  w.w(0, `\nType:\t${secret.type ?? 'Opaque'}\n`);
  w.w(0, '\nData\n====\n');
  for (const k of Object.keys(secret.data ?? {}).sort()) {
    const v = String(secret.data[k]);
    // a service account token is shown in full, every other key only by its size
    if (k === 'token' && secret.type === SA_TOKEN_TYPE) w.w(0, `${k}:\t${decodeBase64(v)}\n`);
    else w.w(0, `${k}:\t${base64Bytes(v)} bytes\n`);
  }
}

export function describeNamespace(env: KubectlEnv, w: DescribeWriter, ns: Any): void {
  const name = ns.metadata?.name as string;
  w.w(0, `Name:\t${name}\n`);
  labelsMultiline(w, 'Labels', ns.metadata?.labels);
  annotationsMultiline(w, ns.metadata?.annotations);
  w.w(0, `Status:\t${ns.status?.phase ?? 'Active'}\n`);
  const conds: Any[] = ns.status?.conditions ?? [];
  if (conds.length) {
    w.w(0, 'Conditions:\n');
    w.w(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.w(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of conds)
      w.w(
        1,
        `${c.type}\t${c.status}\t${c.lastTransitionTime ?? ''}\t${c.reason ?? ''}\t${c.message ?? ''}\n`,
      );
  }
  const list = (resource: string): Any[] => {
    const res = env.client.request({ verb: 'list', resource, namespace: name });
    return isOk(res) ? (listItems(res) as Any[]) : [];
  };
  const quotas = list('resourcequotas');
  w.w(0, '\n');
  if (quotas.length === 0) w.w(0, 'No resource quota.\n');
  else {
    w.w(0, 'Resource Quotas\n');
    for (const q of quotas) {
      w.w(1, `Name:\t${q.metadata?.name}\n`);
      w.w(1, 'Resource\tUsed\tHard\n');
      w.w(1, '--------\t---\t---\n');
      const hard: Record<string, string> = q.status?.hard ?? q.spec?.hard ?? {};
      for (const r of Object.keys(hard).sort())
        w.w(1, `${r}\t${q.status?.used?.[r] ?? '0'}\t${hard[r]}\n`);
    }
  }
  const limits = list('limitranges');
  w.w(0, '\n');
  if (limits.length === 0) w.w(0, 'No LimitRange resource.\n');
  else {
    // DescribeLimitRanges: one header, rows indented by a single space
    w.w(
      0,
      'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n',
    );
    w.w(0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
    for (const l of limits) {
      for (const item of (l.spec?.limits ?? []) as Any[]) {
        const keys = new Set<string>();
        for (const f of ['min', 'max', 'default', 'defaultRequest', 'maxLimitRequestRatio'])
          for (const k of Object.keys(item[f] ?? {})) keys.add(k);
        for (const k of [...keys].sort()) {
          const v = (f: string): string => item[f]?.[k] ?? '-';
          w.w(
            0,
            ` ${item.type}\t${k}\t${v('min')}\t${v('max')}\t${v('defaultRequest')}\t${v('default')}\t${v('maxLimitRequestRatio')}\n`,
          );
        }
      }
    }
  }
}

export function describeServiceAccount(env: KubectlEnv, w: DescribeWriter, sa: Any): void {
  nameAndNamespace(w, sa);
  const secrets = listItems(
    env.client.request({ verb: 'list', resource: 'secrets', namespace: sa.metadata?.namespace }),
  ) as Any[];
  const existing = new Set(secrets.map((s) => s.metadata?.name as string));
  const tokens = secrets
    .filter(
      (s) =>
        s.type === SA_TOKEN_TYPE &&
        s.metadata?.annotations?.['kubernetes.io/service-account.name'] === sa.metadata?.name &&
        s.metadata?.annotations?.['kubernetes.io/service-account.uid'] === sa.metadata?.uid,
    )
    .map((s) => s.metadata?.name as string)
    .sort();
  const mark = (n: string): string => (existing.has(n) ? n : `${n} (not found)`);
  const pulls = ((sa.imagePullSecrets ?? []) as Any[]).map((r) => mark(r.name)).sort();
  const mounts = ((sa.secrets ?? []) as Any[]).map((r) => mark(r.name)).sort();
  // upstream pads the three headers to one width and prints them in sorted order
  for (const [header, names] of [
    ['Image pull secrets:', pulls],
    ['Mountable secrets: ', mounts],
    ['Tokens:            ', tokens],
  ] as [string, string[]][]) {
    if (names.length === 0) {
      w.w(0, `${header}\t<none>\n`);
      continue;
    }
    names.forEach((n, i) => w.w(0, `${i === 0 ? header : ' '.repeat(header.length)}\t${n}\n`));
  }
}
