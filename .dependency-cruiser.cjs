// The architecture rules of STYLE.md, checked in CI. The architecture a learner is taught is the
// architecture the simulator's code has: components never import each other, only the apiserver
// touches etcd, and the simulator stays pure.
const SIM_COMPONENTS = ['controllers', 'scheduler', 'kubelet', 'kube-proxy'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'sim-is-pure',
      comment: 'libs/sim has no I/O: no apps, no db, no Prisma/BullMQ/Redis, no node: built-ins.',
      severity: 'error',
      from: { path: '^libs/sim/src', pathNot: '[.](spec|test)[.]ts$' },
      to: {
        path: '^(apps/|libs/db|libs/content|libs/contracts)|node_modules/(@prisma|prisma|bullmq|ioredis|pg)/',
      },
    },
    {
      name: 'sim-no-node-builtins',
      comment: 'Tests may read their golden files; the simulator itself may not.',
      severity: 'error',
      from: { path: '^libs/sim/src', pathNot: '[.](spec|test)[.]ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-apiserver-touches-etcd',
      comment:
        'Inside libs/sim only apiserver/ (and the lab that wires the cluster) imports etcd/; the package barrel re-exports its snapshot types.',
      severity: 'error',
      from: {
        path: '^libs/sim/src/',
        // etcdctl is etcd's own client: on a real control plane it talks to etcd directly.
        pathNot:
          '^libs/sim/src/(apiserver|etcd)/|^libs/sim/src/lab/|^libs/sim/src/cli/etcdctl/|^libs/sim/src/index[.]ts$',
      },
      to: { path: '^libs/sim/src/etcd/' },
    },
    ...SIM_COMPONENTS.map((component) => ({
      name: `no-cross-component-imports-${component}`,
      comment: 'Components talk only through the apiserver, never by importing each other.',
      severity: 'error',
      from: { path: `^libs/sim/src/${component}/` },
      to: {
        path: `^libs/sim/src/(${['apiserver', 'etcd', ...SIM_COMPONENTS.filter((c) => c !== component)].join('|')})/`,
      },
    })),
    {
      name: 'api-and-worker-are-separate',
      severity: 'error',
      from: { path: '^apps/api/' },
      to: { path: '^apps/worker/' },
    },
    {
      name: 'worker-and-api-are-separate',
      severity: 'error',
      from: { path: '^apps/worker/' },
      to: { path: '^apps/api/' },
    },
    {
      name: 'web-never-imports-db',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^libs/db/|node_modules/(@prisma|pg)/' },
    },
    {
      name: 'only-repositories-import-prisma',
      severity: 'error',
      from: {
        path: '^apps/',
        pathNot: '\\.repository\\.ts$|\\.spec\\.ts$',
      },
      to: { path: 'node_modules/@prisma/|^libs/db/src/generated/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|\\.next|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    combinedDependencies: true,
  },
};
