// Simulator benchmark (a script, not a timed test): `npx tsx bench/sim.ts [--pods 3000] [--nodes 100] [--cold-only]`.
// 1. default lab: CPU cost of one tick (advance(100 ms)) once the cluster is steady;
// 2. a 100-node / 3,000-pod cluster: Deployments created, every pod scheduled, started and
//    Running; CPU time measured with process.cpuUsage (user + system, every thread: the JIT's
//    and the collector's helpers count too), in this fresh process and then once more.

import { createLab } from '../libs/sim/src/lab/lab';
import type { NodeSpec } from '../libs/sim/src/lab/lab-types';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function deployment(name: string, replicas: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              resources: { requests: { cpu: '10m', memory: '16Mi' } },
            },
          ],
        },
      },
    },
  };
}

function benchTick(): void {
  const lab = createLab({ seed: 1 });
  lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: deployment('web', 3),
  });
  lab.advance(60_000); // settle: nodes Ready, pods Running, leases renewed
  const ticks = 600;
  const start = process.cpuUsage();
  for (let i = 0; i < ticks; i++) lab.advance(100);
  const ms = cpuMs(start);
  console.log(
    `default lab: ${ticks} ticks of advance(100) over ${ticks / 10}s sim -> ${(ms / ticks).toFixed(3)} ms CPU per tick`,
  );
}

function benchCluster(nodes: number, pods: number, label = ''): void {
  const specs: NodeSpec[] = [{ name: 'control-plane', controlPlane: true }];
  for (let i = 1; i < nodes; i++)
    specs.push({ name: `node-${i}`, capacity: { cpu: '16', memory: '64Gi', pods: '110' } });
  let start = process.cpuUsage();
  const lab = createLab({ seed: 1, nodes: specs });
  lab.advance(5_000);
  const bootMs = cpuMs(start);
  const perDeploy = 100;
  start = process.cpuUsage();
  const simStart = lab.now;
  for (let d = 0; d * perDeploy < pods; d++) {
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: deployment(`app-${d}`, Math.min(perDeploy, pods - d * perDeploy)),
    });
  }
  let running = 0;
  // The bench's own poll (peekAll hands out a copy of every pod) is not the simulator's work:
  // its CPU is measured apart and left out of the settle time.
  let pollMs = 0;
  for (let step = 0; step < 600; step++) {
    lab.advance(500);
    const pollStart = process.cpuUsage();
    running = lab
      .peekAll('pods', 'default')
      .filter((p) => (p as { status?: { phase?: string } }).status?.phase === 'Running').length;
    pollMs += cpuMs(pollStart);
    if (running >= pods) break;
  }
  const settleMs = cpuMs(start) - pollMs;
  const simMs = lab.now - simStart;
  console.log(
    `${label}${nodes} nodes / ${pods} pods: boot ${bootMs.toFixed(0)} ms CPU; create+schedule+settle ${settleMs.toFixed(0)} ms CPU ` +
      `(+ ${pollMs.toFixed(0)} ms polling pods, not counted), ` +
      `${running}/${pods} Running after ${(simMs / 1000).toFixed(1)} s sim; trace ${lab.trace().length} events retained; ` +
      `etcd ${lab.etcd.count()} keys at revision ${lab.etcd.revision}`,
  );
}

benchTick();
benchCluster(arg('nodes', 100), arg('pods', 3000));
// The same again in this process, whose JIT has now compiled the settle's code paths: what a
// long-running worker pays. The first run above (a fresh process) is the target's measure.
if (!process.argv.includes('--cold-only'))
  benchCluster(arg('nodes', 100), arg('pods', 3000), 'again, same process: ');
