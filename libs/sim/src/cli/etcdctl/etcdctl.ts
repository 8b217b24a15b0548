// etcdctl v3.5 on the control-plane node: get/put/del, member list, endpoint health|status,
// snapshot save|status|restore. TLS flags are checked against /etc/kubernetes/pki/etcd like the
// real server would (wrong or missing certificates time out). Output per FIDELITY.md §9.

import type { EtcdSnapshot, KeyValue } from '../../etcd';
import type { CommandContext, CommandResult } from '../shell/command-types';
import { fail, ok } from '../shell/command-types';
import type { TerminalContext } from '../terminal-context';
import { etcdTable, humanizeBytes } from './etcd-table';

export const SNAPSHOT_MAGIC = 'KUBEJOURNEY-ETCD-SNAPSHOT v1\n';
const ETCD_VERSION = '3.5.16';
const TIMEOUT = 'Error: context deadline exceeded\n';
const VALID_PAIRS: [string, string][] = [
  ['/etc/kubernetes/pki/etcd/server.crt', '/etc/kubernetes/pki/etcd/server.key'],
  ['/etc/kubernetes/pki/etcd/peer.crt', '/etc/kubernetes/pki/etcd/peer.key'],
  [
    '/etc/kubernetes/pki/etcd/healthcheck-client.crt',
    '/etc/kubernetes/pki/etcd/healthcheck-client.key',
  ],
  [
    '/etc/kubernetes/pki/apiserver-etcd-client.crt',
    '/etc/kubernetes/pki/apiserver-etcd-client.key',
  ],
];

interface Flags {
  positional: string[];
  get(name: string): string | undefined;
  has(name: string): boolean;
}

function parse(args: string[]): Flags | string {
  const map = new Map<string, string>();
  const positional: string[] = [];
  const valued = new Set([
    'endpoints',
    'cacert',
    'cert',
    'key',
    'write-out',
    'w',
    'data-dir',
    'consistency',
    'limit',
    'command-timeout',
    'dial-timeout',
    'user',
    'password',
    'name',
    'initial-cluster',
    'initial-advertise-peer-urls',
    'initial-cluster-token',
    'skip-hash-check',
  ]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a.startsWith('-')) {
      const body = a.replace(/^--?/, '');
      const eq = body.indexOf('=');
      if (eq >= 0) map.set(body.slice(0, eq), body.slice(eq + 1));
      else if (valued.has(body)) {
        const v = args[++i];
        if (v === undefined) return `Error: flag needs an argument: --${body}\n`;
        map.set(body, v);
      } else map.set(body, 'true');
    } else positional.push(a);
  }
  return { positional, get: (n) => map.get(n), has: (n) => map.has(n) && map.get(n) !== 'false' };
}

function wallIso(t: TerminalContext): string {
  return new Date(t.nowWallMs()).toISOString();
}

/** The TLS handshake: an error result, or null when the client may talk to etcd. */
function checkTls(ctx: CommandContext, f: Flags): CommandResult | null {
  const endpoints = (f.get('endpoints') ?? '127.0.0.1:2379').split(',');
  for (const p of ['cacert', 'cert', 'key']) {
    const v = f.get(p);
    if (v !== undefined && ctx.fs.read(ctx.resolve(v)) === undefined)
      return fail(`Error: open ${v}: no such file or directory\n`);
  }
  const tlsOk =
    endpoints.every((e) => /^https:\/\/(127\.0\.0\.1|localhost|172\.18\.0\.2):2379$/.test(e)) &&
    ctx.resolve(f.get('cacert') ?? '') === '/etc/kubernetes/pki/etcd/ca.crt' &&
    VALID_PAIRS.some(
      ([c, k]) => ctx.resolve(f.get('cert') ?? '') === c && ctx.resolve(f.get('key') ?? '') === k,
    );
  if (!tlsOk) {
    const ep = endpoints[0] ?? '127.0.0.1:2379';
    return fail(
      `{"level":"warn","ts":"2026-01-05T09:00:05.000Z","logger":"etcd-client","caller":"v3@v3.5.16/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"etcd-endpoints://0xc0004a8000/${ep.replace(/^https?:\/\//, '')}","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = \\"transport: authentication handshake failed: ${ep.startsWith('https') ? 'remote error: tls: certificate required' : 'EOF'}\\""}\n${TIMEOUT}`,
    );
  }
  return null;
}

function etcdOf(t: TerminalContext) {
  return t.sim?.etcd;
}

export function runEtcdctl(ctx: CommandContext, t: TerminalContext): CommandResult {
  const cp = t.sim?.nodes().find((n) => n.controlPlane)?.name ?? 'control-plane';
  if (ctx.host !== cp) return fail('bash: etcdctl: command not found\n', 127);
  const f = parse(ctx.args);
  if (typeof f === 'string') return fail(f);
  const [cmd, sub, ...rest] = f.positional;
  const format = f.get('write-out') ?? f.get('w') ?? 'simple';
  if (!cmd)
    return ok(
      'NAME:\n\tetcdctl - A simple command line client for etcd3.\n\nUSAGE:\n\tetcdctl [flags]\n\nVERSION:\n\t3.5.16\n\nAPI VERSION:\n\t3.5\n',
    );
  if (cmd === 'version') return ok(`etcdctl version: ${ETCD_VERSION}\nAPI version: 3.5\n`);
  if (cmd === 'snapshot' && (sub === 'status' || sub === 'restore'))
    return snapshotLocal(ctx, t, f, sub, rest, format);
  const tls = checkTls(ctx, f);
  if (tls) return tls;
  const etcd = etcdOf(t);
  if (!etcd) return fail(TIMEOUT);
  const linear = f.get('consistency') !== 's';
  try {
    switch (cmd) {
      case 'get': {
        if (!sub)
          return fail(
            'Error: get command needs one argument as key and an optional argument as range_end\n',
          );
        if (linear && !etcd.hasQuorum()) return fail(TIMEOUT);
        let kvs: KeyValue[] = f.has('prefix')
          ? etcd.range(sub, linear ? 'l' : 's')
          : [etcd.get(sub, linear ? 'l' : 's')].filter((x): x is KeyValue => !!x);
        const limit = Number(f.get('limit') ?? 0);
        if (limit > 0) kvs = kvs.slice(0, limit);
        if (format === 'json') {
          // cluster_id / member_id are uint64 numbers in etcd's JSON, beyond JS's safe integers
          const kvsJson = kvs.map((kv) => ({
            key: b64(kv.key),
            create_revision: kv.createRevision,
            mod_revision: kv.modRevision,
            version: kv.version,
            ...(f.has('keys-only') ? {} : { value: b64(kv.value) }),
          }));
          return ok(
            `{"header":{"cluster_id":14841639068965178418,"member_id":10276657743932975437,"revision":${etcd.revision},"raft_term":${etcd.term}},"kvs":${JSON.stringify(kvsJson)},"count":${kvs.length}}\n`,
          );
        }
        return ok(
          kvs
            .map((kv) => (f.has('keys-only') ? `${kv.key}\n\n` : `${kv.key}\n${kv.value}\n`))
            .join(''),
        );
      }
      case 'put': {
        if (!sub)
          return fail('Error: put command needs 1 argument and input from stdin or 2 arguments\n');
        if (!etcd.hasQuorum()) return fail(TIMEOUT);
        etcd.put(sub, rest[0] ?? ctx.stdin.replace(/\n$/, ''));
        return ok('OK\n');
      }
      case 'del': {
        if (!sub)
          return fail(
            'Error: del command needs one argument as key and an optional argument as range_end\n',
          );
        if (!etcd.hasQuorum()) return fail(TIMEOUT);
        const keys = f.has('prefix')
          ? etcd.range(sub).map((kv) => kv.key)
          : etcd.get(sub)
            ? [sub]
            : [];
        for (const k of keys) etcd.delete(k);
        return ok(`${keys.length}\n`);
      }
      case 'member': {
        if (sub !== 'list')
          return fail(`Error: unknown command "${sub ?? ''}" for "etcdctl member"\n`);
        const rows = etcd.members.map((m) => [
          m.id,
          'started',
          m.name,
          m.peerURL,
          m.clientURL,
          'false',
        ]);
        if (format === 'table')
          return ok(
            etcdTable(['ID', 'STATUS', 'NAME', 'PEER ADDRS', 'CLIENT ADDRS', 'IS LEARNER'], rows),
          );
        return ok(rows.map((r) => `${r.join(', ')}\n`).join(''));
      }
      case 'endpoint':
        return endpoint(t, f, sub, format);
      case 'snapshot': {
        if (sub !== 'save')
          return fail(`Error: unknown command "${sub ?? ''}" for "etcdctl snapshot"\n`);
        const file = rest[0];
        if (!file) return fail('Error: snapshot save expects one argument\n');
        const path = ctx.resolve(file);
        const dir = path.slice(0, path.lastIndexOf('/')) || '/';
        if (!ctx.fs.isDir(dir))
          return fail(
            `{"level":"info","ts":"${wallIso(t)}","caller":"snapshot/v3_snapshot.go:65","msg":"created temporary db file","path":"${file}.part"}\nError: could not open ${file}.part (open ${file}.part: no such file or directory)\n`,
          );
        if (!etcd.hasQuorum()) return fail(TIMEOUT);
        const snap = t.sim?.snapshotSave() ?? etcd.snapshot();
        ctx.fs.write(path, SNAPSHOT_MAGIC + JSON.stringify(snap));
        const ep = f.get('endpoints') ?? '127.0.0.1:2379';
        const ts = wallIso(t);
        const logs = [
          `{"level":"info","ts":"${ts}","caller":"snapshot/v3_snapshot.go:65","msg":"created temporary db file","path":"${file}.part"}`,
          `{"level":"info","ts":"${ts}","logger":"client","caller":"v3@v3.5.16/maintenance.go:212","msg":"opened snapshot stream; downloading"}`,
          `{"level":"info","ts":"${ts}","caller":"snapshot/v3_snapshot.go:73","msg":"fetching snapshot","endpoint":"${ep}"}`,
          `{"level":"info","ts":"${ts}","logger":"client","caller":"v3@v3.5.16/maintenance.go:220","msg":"completed snapshot read; closing"}`,
          `{"level":"info","ts":"${ts}","caller":"snapshot/v3_snapshot.go:88","msg":"fetched snapshot","endpoint":"${ep}","size":"${humanizeBytes(snap.totalSize)}","took":"now"}`,
          `{"level":"info","ts":"${ts}","caller":"snapshot/v3_snapshot.go:97","msg":"saved","path":"${file}"}`,
        ];
        return {
          stdout: `Snapshot saved at ${file}\n`,
          stderr: `${logs.join('\n')}\n`,
          exitCode: 0,
        };
      }
      default:
        return fail(
          `Error: unknown command "${cmd}" for "etcdctl"\nRun 'etcdctl --help' for usage.\n`,
        );
    }
  } catch (e) {
    return fail(
      e instanceof Error && /timed out|quorum/i.test(e.message)
        ? TIMEOUT
        : `Error: ${e instanceof Error ? e.message : String(e)}\n`,
    );
  }
}

function b64(s: string): string {
  let out = '';
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else
      bytes.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 63),
        0x80 | ((cp >> 6) & 63),
        0x80 | (cp & 63),
      );
  }
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      A[(n >> 18) & 63]! +
      A[(n >> 12) & 63]! +
      (i + 1 < bytes.length ? A[(n >> 6) & 63] : '=') +
      (i + 2 < bytes.length ? A[n & 63] : '=');
  }
  return out;
}

function endpoint(
  t: TerminalContext,
  f: Flags,
  sub: string | undefined,
  format: string,
): CommandResult {
  const etcd = etcdOf(t);
  if (!etcd) return fail(TIMEOUT);
  const members = f.has('cluster')
    ? etcd.members
    : [
        {
          ...(etcd.members[0] as (typeof etcd.members)[number]),
          clientURL: f.get('endpoints') ?? '127.0.0.1:2379',
        },
      ];
  const quorum = etcd.hasQuorum();
  if (sub === 'health') {
    const rows = members.map((m, i) => {
      const healthy = quorum && (etcd.members.find((x) => x.id === m.id)?.healthy ?? false);
      const took = `${(8 + ((i * 37 + etcd.revision) % 30) / 10).toFixed(6).replace(/0+$/, '')}ms`;
      return { ep: m.clientURL, healthy, took };
    });
    if (format === 'table') {
      return {
        stdout: etcdTable(
          ['ENDPOINT', 'HEALTH', 'TOOK', 'ERROR'],
          rows.map((r) => [
            r.ep,
            String(r.healthy),
            r.healthy ? r.took : '5.000985s',
            r.healthy ? '' : 'context deadline exceeded',
          ]),
        ),
        stderr: '',
        exitCode: rows.every((r) => r.healthy) ? 0 : 1,
      };
    }
    const lines = rows.map((r) =>
      r.healthy
        ? `${r.ep} is healthy: successfully committed proposal: took = ${r.took}`
        : `${r.ep} is unhealthy: failed to commit proposal: context deadline exceeded`,
    );
    const bad = rows.some((r) => !r.healthy);
    return {
      stdout: '',
      stderr: `${lines.join('\n')}\n${bad ? 'Error: unhealthy cluster\n' : ''}`,
      exitCode: bad ? 1 : 0,
    };
  }
  if (sub === 'status') {
    const leader = etcd.leader();
    const size = humanizeBytes(Math.max(20_480, etcd.count() * 1500));
    const live = members.filter((m) => etcd.members.find((x) => x.id === m.id)?.healthy);
    const rows = live.map((m) => [
      m.clientURL,
      m.id,
      ETCD_VERSION,
      size,
      String(leader?.id === m.id),
      'false',
      String(etcd.term),
      String(etcd.index),
      String(etcd.index),
      '',
    ]);
    if (format === 'table')
      return ok(
        etcdTable(
          [
            'ENDPOINT',
            'ID',
            'VERSION',
            'DB SIZE',
            'IS LEADER',
            'IS LEARNER',
            'RAFT TERM',
            'RAFT INDEX',
            'RAFT APPLIED INDEX',
            'ERRORS',
          ],
          rows,
        ),
      );
    return ok(rows.map((r) => `${r.join(', ')}\n`).join(''));
  }
  return fail(`Error: unknown command "${sub ?? ''}" for "etcdctl endpoint"\n`);
}

export function readSnapshot(text: string | undefined): EtcdSnapshot | null {
  if (!text || !text.startsWith(SNAPSHOT_MAGIC)) return null;
  try {
    return JSON.parse(text.slice(SNAPSHOT_MAGIC.length)) as EtcdSnapshot;
  } catch {
    return null;
  }
}

function snapshotLocal(
  ctx: CommandContext,
  t: TerminalContext,
  f: Flags,
  sub: 'status' | 'restore',
  rest: string[],
  format: string,
): CommandResult {
  const deprecated = `Deprecated: Use \`etcdutl snapshot ${sub}\` instead.\n\n`;
  const file = rest[0];
  if (!file) return fail(`${deprecated}Error: snapshot ${sub} requires exactly one argument\n`);
  const text = ctx.fs.read(ctx.resolve(file));
  if (text === undefined)
    return fail(`${deprecated}Error: stat ${file}: no such file or directory\n`);
  const snap = readSnapshot(text);
  if (!snap) return fail(`${deprecated}Error: invalid database\n`);
  if (sub === 'status') {
    const row = [
      snap.hash,
      String(snap.revision),
      String(snap.totalKeys),
      humanizeBytes(snap.totalSize),
    ];
    if (format === 'table')
      return {
        stdout: etcdTable(['HASH', 'REVISION', 'TOTAL KEYS', 'TOTAL SIZE'], [row]),
        stderr: deprecated,
        exitCode: 0,
      };
    if (format === 'json')
      return {
        stdout: `{"hash":${parseInt(snap.hash, 16)},"revision":${snap.revision},"totalKey":${snap.totalKeys},"totalSize":${snap.totalSize}}\n`,
        stderr: deprecated,
        exitCode: 0,
      };
    return { stdout: `${row.join(', ')}\n`, stderr: deprecated, exitCode: 0 };
  }
  const dataDir = ctx.resolve(f.get('data-dir') ?? `${f.get('name') ?? 'default'}.etcd`);
  if (ctx.fs.isDir(dataDir) && ctx.fs.list(dataDir).length > 0)
    return fail(
      `${deprecated}Error: data-dir "${f.get('data-dir') ?? dataDir}" not empty or could not be read\n`,
    );
  ctx.fs.write(`${dataDir}/member/snap/db`, text);
  ctx.fs.write(`${dataDir}/member/wal/0000000000000000-0000000000000000.wal`, '');
  const ts = new Date(t.nowWallMs()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const dirs = `"path": "${file}", "wal-dir": "${dataDir}/member/wal", "data-dir": "${dataDir}", "snap-dir": "${dataDir}/member/snap"`;
  const logs = [
    `${ts}\tinfo\tsnapshot/v3_snapshot.go:260\trestoring snapshot\t{${dirs}, "stack": "go.etcd.io/etcd/etcdutl/v3/snapshot.(*v3Manager).Restore\\n\\tgo.etcd.io/etcd/etcdutl/v3@v3.5.16/snapshot/v3_snapshot.go:254"}`,
    `${ts}\tinfo\tmembership/store.go:141\tTrimming membership information from the backend...`,
    `${ts}\tinfo\tmembership/cluster.go:421\tadded member\t{"cluster-id": "cdf818194e3a8c32", "local-member-id": "0", "added-peer-id": "8e9e05c52164694d", "added-peer-peer-urls": ["http://localhost:2380"]}`,
    `${ts}\tinfo\tsnapshot/v3_snapshot.go:287\trestored snapshot\t{${dirs}}`,
  ];
  return { stdout: '', stderr: `${deprecated}${logs.join('\n')}\n`, exitCode: 0 };
}
