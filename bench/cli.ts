// CLI benchmark (a script): `npx tsx bench/cli.ts [--pods 3000] [--runs 30]`.
// `kubectl get pods -A` on a lab holding 3,000 pods, through the whole path a learner's command
// takes: shell parse -> kubectl -> apiserver list (RBAC, Table built by the printers) -> tabwriter.
// Target: median < 20 ms.

import { createLab } from '../libs/sim/src/lab/lab';
import { createTerminal } from '../libs/sim/src/cli';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

const PODS = arg('pods', 3000);
const RUNS = arg('runs', 30);
const NAMESPACES = 10;

const lab = createLab({ seed: 1 });
lab.advance(1000);
for (let n = 0; n < NAMESPACES; n++) {
  lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `team-${n}` } },
  });
}
const t0 = performance.now();
for (let i = 0; i < PODS; i++) {
  const res = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'pods',
    namespace: `team-${i % NAMESPACES}`,
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `web-${String(i).padStart(5, '0')}`, labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    },
  }) as { code: number };
  if (res.code !== 201) throw new Error(`create pod ${i}: HTTP ${res.code}`);
}
console.log(`created ${PODS} pods in ${(performance.now() - t0).toFixed(0)} ms`);

const t = createTerminal(lab, { letTimePass: false });
const first = t.exec('kubectl get pods -A');
const rows = first.stdout.trim().split('\n').length - 1;
if (first.exitCode !== 0 || rows < PODS)
  throw new Error(`unexpected output: exit ${first.exitCode}, ${rows} rows, ${first.stderr}`);

const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const s = performance.now();
  t.exec('kubectl get pods -A');
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] as number;
const p90 = times[Math.floor(times.length * 0.9)] as number;
console.log(
  `kubectl get pods -A (${rows} rows): median ${median.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, min ${(times[0] as number).toFixed(2)} ms over ${RUNS} runs`,
);
// the same list straight from the apiserver (what kubectl waits for), to split the cost
const server: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const s = performance.now();
  lab.request('kubernetes-admin', {
    verb: 'list',
    resource: 'pods',
    query: { asTable: true, limit: 500 },
  });
  server.push(performance.now() - s);
}
server.sort((a, b) => a - b);
const serverMedian = server[Math.floor(server.length / 2)] as number;
console.log(
  `  the apiserver list alone (RBAC, cache, Table): median ${serverMedian.toFixed(2)} ms, min ${(server[0] as number).toFixed(2)} ms`,
);
console.log(
  `  so the CLI side (shell, kubectl, tabwriter) costs about ${Math.max(0, (times[0] as number) - (server[0] as number)).toFixed(2)} ms (min vs min)`,
);
console.log(median < 20 ? 'PASS (< 20 ms)' : 'FAIL (target < 20 ms)');
process.exitCode = median < 20 ? 0 : 1;
