import { describe, expect, it } from 'vitest';
import type { KubeObject, TableRow } from '../../model';
import { printTable } from './print-table';

const START = Date.parse('2026-01-05T09:00:00Z');
const ts = (offsetMs: number) => new Date(START + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
const NOW = { startMs: START, nowMs: 10 * 60_000 }; // 10 minutes into the lab

function pod(over: Record<string, unknown> = {}, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'my-app-7d9f4b6c5-x2k1m', namespace: 'default', creationTimestamp: ts(0) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...over },
    status,
  };
}

const running = { running: { startedAt: ts(2000) } };
const NONE4 = ['<none>', '<none>', '<none>', '<none>'];

describe('printTable pods', () => {
  it('should expose the columns and priorities of printers.go', () => {
    const t = printTable('pods', [], NOW);
    expect(t.columnDefinitions.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Ready:0',
      'Status:0',
      'Restarts:0',
      'Age:0',
      'IP:1',
      'Node:1',
      'Nominated Node:1',
      'Readiness Gates:1',
    ]);
    expect(t.kind).toBe('Table');
    expect(t.apiVersion).toBe('meta.k8s.io/v1');
  });

  it.each<[string, KubeObject, unknown[]]>([
    [
      'pending unscheduled',
      pod({}, { phase: 'Pending' }),
      ['0/1', 'Pending', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'container creating',
      pod(
        { nodeName: 'node-1' },
        {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'app',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ContainerCreating' } },
            },
          ],
        },
      ),
      ['0/1', 'ContainerCreating', '0', '10m', '<none>', 'node-1', '<none>', '<none>'],
    ],
    [
      'running and ready',
      pod(
        { nodeName: 'node-2' },
        {
          phase: 'Running',
          podIP: '10.244.2.5',
          podIPs: [{ ip: '10.244.2.5' }],
          containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
        },
      ),
      ['1/1', 'Running', '0', '10m', '10.244.2.5', 'node-2', '<none>', '<none>'],
    ],
    [
      'crash loop with a last termination',
      pod(
        { nodeName: 'node-1' },
        {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              ready: false,
              restartCount: 4,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
              lastState: {
                terminated: {
                  exitCode: 1,
                  reason: 'Error',
                  finishedAt: ts(10 * 60_000 - (5 * 60_000 + 3000)),
                },
              },
            },
          ],
        },
      ),
      ['0/1', 'CrashLoopBackOff', '4 (5m3s ago)', '10m', '<none>', 'node-1', '<none>', '<none>'],
    ],
    [
      'terminated without reason',
      pod(
        {},
        {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'app',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 137 } },
            },
          ],
        },
      ),
      ['0/1', 'ExitCode:137', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'terminated by signal',
      pod(
        {},
        {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'app',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, signal: 9 } },
            },
          ],
        },
      ),
      ['0/1', 'Signal:9', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'evicted',
      pod({}, { phase: 'Failed', reason: 'Evicted' }),
      ['0/1', 'Evicted', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'init container waiting',
      pod(
        { initContainers: [{ name: 'init', image: 'busybox' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'init',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'PodInitializing' } },
            },
          ],
        },
      ),
      ['0/1', 'Init:0/1', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'init container crash loop',
      pod(
        { initContainers: [{ name: 'init', image: 'busybox' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'init',
              ready: false,
              restartCount: 2,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
            },
          ],
        },
      ),
      ['0/1', 'Init:CrashLoopBackOff', '2', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'init container failed with reason',
      pod(
        { initContainers: [{ name: 'init', image: 'busybox' }] },
        {
          phase: 'Pending',
          initContainerStatuses: [
            {
              name: 'init',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 1, reason: 'Error' } },
            },
          ],
        },
      ),
      ['0/1', 'Init:Error', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'sidecar counts towards READY',
      pod(
        { initContainers: [{ name: 'side', image: 'envoy', restartPolicy: 'Always' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [
            { name: 'side', ready: true, started: true, restartCount: 0, state: running },
          ],
          containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
        },
      ),
      ['2/2', 'Running', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'completed with a running container and Ready',
      pod(
        {
          containers: [
            { name: 'a', image: 'x' },
            { name: 'b', image: 'y' },
          ],
        },
        {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 0, state: running },
            {
              name: 'b',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        },
      ),
      ['1/2', 'Running', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'completed with a running container not Ready',
      pod(
        {
          containers: [
            { name: 'a', image: 'x' },
            { name: 'b', image: 'y' },
          ],
        },
        {
          phase: 'Running',
          containerStatuses: [
            { name: 'a', ready: true, restartCount: 0, state: running },
            {
              name: 'b',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        },
      ),
      ['1/2', 'NotReady', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'terminating',
      {
        ...pod(
          {},
          {
            phase: 'Running',
            containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
          },
        ),
        metadata: {
          name: 'my-app-7d9f4b6c5-x2k1m',
          creationTimestamp: ts(0),
          deletionTimestamp: ts(9 * 60_000),
        },
      },
      ['1/1', 'Terminating', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'node lost',
      {
        ...pod({}, { phase: 'Running', reason: 'NodeLost' }),
        metadata: {
          name: 'my-app-7d9f4b6c5-x2k1m',
          creationTimestamp: ts(0),
          deletionTimestamp: ts(9 * 60_000),
        },
      },
      ['0/1', 'Unknown', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'scheduling gated',
      pod(
        {},
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      ),
      ['0/1', 'SchedulingGated', '0', '10m', '<none>', '<none>', '<none>', '<none>'],
    ],
  ])('should print %s', (_name, obj, cells) => {
    const t = printTable('pods', [obj], NOW);
    expect(t.rows[0]?.cells).toEqual(['my-app-7d9f4b6c5-x2k1m', ...cells]);
    expect(t.rows[0]?.object).toBe(obj);
    // the apiserver's path (a prepared row per object version) prints the very same cells
    const cached = printTable('pods', [obj], { ...NOW, rowCache: new WeakMap() });
    expect(cached.rows[0]?.cells).toEqual(t.rows[0]?.cells);
  });

  it('should move AGE and the last restart with the clock when a cached row is reused', () => {
    const crashing = pod(
      { nodeName: 'node-1' },
      {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 4,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: ts(4 * 60_000) } },
          },
        ],
      },
    );
    const missing = { ...pod(), metadata: { name: 'no-timestamp' } };
    const rowCache = new WeakMap();
    const at = (nowMs: number) =>
      printTable('pods', [crashing, missing], { startMs: START, nowMs, rowCache }).rows.map((r) =>
        r.cells.slice(0, 5),
      );
    expect(at(10 * 60_000)).toEqual([
      ['my-app-7d9f4b6c5-x2k1m', '0/1', 'CrashLoopBackOff', '4 (6m ago)', '10m'],
      ['no-timestamp', '0/1', '', '0', '<unknown>'],
    ]);
    expect(at(4 * 3_600_000)).toEqual([
      ['my-app-7d9f4b6c5-x2k1m', '0/1', 'CrashLoopBackOff', '4 (3h56m ago)', '4h'],
      ['no-timestamp', '0/1', '', '0', '<unknown>'],
    ]);
    // without the cache, the printer itself agrees
    expect(
      printTable('pods', [crashing, missing], { startMs: START, nowMs: 4 * 3_600_000 }).rows.map(
        (r) => r.cells.slice(0, 5),
      ),
    ).toEqual(at(4 * 3_600_000));
  });

  it('should hand out frozen rows when they come from the cache so a client cannot change them', () => {
    const rowCache = new WeakMap();
    const obj = pod();
    const first = printTable('pods', [obj], { ...NOW, rowCache }).rows[0] as TableRow;
    expect(() => {
      first.cells[1] = 'changed by a client';
    }).toThrow(TypeError);
    expect(() => {
      first.cells = [];
    }).toThrow(TypeError);
    // the same instant, or a later one where every age reads the same, reuses the row
    expect(printTable('pods', [obj], { ...NOW, rowCache }).rows[0]).toBe(first);
    const later = { startMs: START, nowMs: NOW.nowMs + 30_000, rowCache };
    expect(printTable('pods', [obj], later).rows[0]).toBe(first);
    const next = printTable('pods', [obj], { ...later, nowMs: NOW.nowMs + 60_000 }).rows[0];
    expect(next?.cells).toEqual(['my-app-7d9f4b6c5-x2k1m', '0/1', '', '0', '11m', ...NONE4]);
    expect(next?.object).toBe(obj);
  });
});

describe('printTable other resources', () => {
  const meta = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    namespace: 'default',
    creationTimestamp: ts(0),
    ...extra,
  });

  it.each<[string, string, KubeObject, unknown[]]>([
    [
      'deployments',
      'a deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: meta('my-app'),
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'my-app' } },
          template: {
            spec: {
              containers: [
                { name: 'app', image: 'nginx:1.27' },
                { name: 'log', image: 'busybox' },
              ],
            },
          },
        },
        status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
      },
      ['my-app', '2/3', 3, 2, '10m', 'app,log', 'nginx:1.27,busybox', 'app=my-app'],
    ],
    [
      'replicasets',
      'a replicaset',
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: meta('my-app-7d9f4b6c5'),
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'my-app', 'pod-template-hash': '7d9f4b6c5' } },
          template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
        },
        status: { replicas: 3, readyReplicas: 1 },
      },
      [
        'my-app-7d9f4b6c5',
        3,
        3,
        1,
        '10m',
        'app',
        'nginx:1.27',
        'app=my-app,pod-template-hash=7d9f4b6c5',
      ],
    ],
    [
      'jobs',
      'a running job',
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: meta('pi'),
        spec: {
          completions: 1,
          template: { spec: { containers: [{ name: 'pi', image: 'perl' }] } },
          selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u' } },
        },
        status: { startTime: ts(60_000) },
      },
      ['pi', 'Running', '0/1', '9m', '10m', 'pi', 'perl', 'batch.kubernetes.io/controller-uid=u'],
    ],
    [
      'jobs',
      'a complete job',
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: meta('pi'),
        spec: {
          completions: 1,
          template: { spec: { containers: [{ name: 'pi', image: 'perl' }] } },
        },
        status: {
          startTime: ts(0),
          completionTime: ts(9000),
          succeeded: 1,
          conditions: [{ type: 'Complete', status: 'True' }],
        },
      },
      ['pi', 'Complete', '1/1', '9s', '10m', 'pi', 'perl', ''],
    ],
    [
      'nodes',
      'a cordoned control-plane node',
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name: 'control-plane',
          creationTimestamp: ts(0),
          labels: {
            'node-role.kubernetes.io/control-plane': '',
            'kubernetes.io/hostname': 'control-plane',
          },
        },
        spec: { unschedulable: true },
        status: {
          conditions: [{ type: 'Ready', status: 'True' }],
          addresses: [
            { type: 'InternalIP', address: '172.18.0.2' },
            { type: 'Hostname', address: 'control-plane' },
          ],
          nodeInfo: {
            kubeletVersion: 'v1.32.5',
            osImage: 'Debian GNU/Linux 12 (bookworm)',
            kernelVersion: '6.1.0-28-amd64',
            containerRuntimeVersion: 'containerd://1.7.24',
          },
        },
      },
      [
        'control-plane',
        'Ready,SchedulingDisabled',
        'control-plane',
        '10m',
        'v1.32.5',
        '172.18.0.2',
        '<none>',
        'Debian GNU/Linux 12 (bookworm)',
        '6.1.0-28-amd64',
        'containerd://1.7.24',
      ],
    ],
    [
      'nodes',
      'a node with no Ready condition',
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name: 'node-1',
          creationTimestamp: ts(0),
          labels: { 'kubernetes.io/role': 'worker' },
        },
        spec: {},
        status: {},
      },
      [
        'node-1',
        'Unknown',
        'worker',
        '10m',
        '',
        '<none>',
        '<none>',
        '<unknown>',
        '<unknown>',
        '<unknown>',
      ],
    ],
    [
      'nodes',
      'a NotReady node',
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'node-2', creationTimestamp: ts(0) },
        spec: {},
        status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
      },
      [
        'node-2',
        'NotReady',
        '<none>',
        '10m',
        '',
        '<none>',
        '<none>',
        '<unknown>',
        '<unknown>',
        '<unknown>',
      ],
    ],
    [
      'services',
      'a ClusterIP service',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta('my-app-svc'),
        spec: {
          type: 'ClusterIP',
          clusterIP: '10.96.12.7',
          clusterIPs: ['10.96.12.7'],
          selector: { app: 'my-app' },
          ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }],
        },
      },
      ['my-app-svc', 'ClusterIP', '10.96.12.7', '<none>', '80/TCP', '10m', 'app=my-app'],
    ],
    [
      'services',
      'a NodePort service',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta('web'),
        spec: {
          type: 'NodePort',
          clusterIPs: ['10.96.0.20'],
          ports: [
            { port: 80, nodePort: 30080, protocol: 'TCP' },
            { port: 53, protocol: 'UDP' },
          ],
        },
      },
      ['web', 'NodePort', '10.96.0.20', '<none>', '80:30080/TCP,53/UDP', '10m', '<none>'],
    ],
    [
      'services',
      'a pending LoadBalancer',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta('lb'),
        spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.21'], ports: [] },
      },
      ['lb', 'LoadBalancer', '10.96.0.21', '<pending>', '<none>', '10m', '<none>'],
    ],
    [
      'endpoints',
      'no subsets',
      { apiVersion: 'v1', kind: 'Endpoints', metadata: meta('my-app-svc') },
      ['my-app-svc', '<none>', '10m'],
    ],
    [
      'endpoints',
      'only not-ready addresses (prints empty)',
      {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: meta('my-app-svc'),
        subsets: [
          { notReadyAddresses: [{ ip: '10.244.1.4' }], ports: [{ port: 8080, protocol: 'TCP' }] },
        ],
      },
      ['my-app-svc', '', '10m'],
    ],
    [
      'endpoints',
      'more than three addresses',
      {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: meta('my-app-svc'),
        subsets: [
          {
            addresses: [
              { ip: '10.244.1.4' },
              { ip: '10.244.2.4' },
              { ip: '10.244.3.4' },
              { ip: '10.244.3.5' },
            ],
            ports: [{ port: 8080 }],
          },
        ],
      },
      ['my-app-svc', '10.244.1.4:8080,10.244.2.4:8080,10.244.3.4:8080 + 1 more...', '10m'],
    ],
    [
      'endpointslices',
      'an empty slice',
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: meta('my-app-svc-abcde'),
        addressType: 'IPv4',
        endpoints: [],
      },
      ['my-app-svc-abcde', 'IPv4', '<unset>', '<unset>', '10m'],
    ],
    [
      'endpointslices',
      'a slice with endpoints',
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: meta('my-app-svc-abcde'),
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.244.1.4'] }, { addresses: ['10.244.2.4'] }],
        ports: [{ name: '', port: 8080, protocol: 'TCP' }],
      },
      ['my-app-svc-abcde', 'IPv4', '8080', '10.244.1.4,10.244.2.4', '10m'],
    ],
    [
      'namespaces',
      'a namespace',
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'default', creationTimestamp: ts(0) },
        status: { phase: 'Active' },
      },
      ['default', 'Active', '10m'],
    ],
    [
      'secrets',
      'a secret',
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: meta('my-secret'),
        type: 'Opaque',
        data: { password: 'czNjcjN0', user: 'YWRtaW4=' },
      },
      ['my-secret', 'Opaque', 2, '10m'],
    ],
    [
      'configmaps',
      'a configmap',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: meta('kube-root-ca.crt'),
        data: { 'ca.crt': 'x' },
      },
      ['kube-root-ca.crt', 1, '10m'],
    ],
    [
      'serviceaccounts',
      'a service account',
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('default') },
      ['default', 0, '10m'],
    ],
    [
      'leases',
      'a node lease',
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: meta('node-1'),
        spec: { holderIdentity: 'node-1' },
      },
      ['node-1', 'node-1', '10m'],
    ],
    [
      'roles',
      'a role',
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta('pod-reader') },
      ['pod-reader', '2026-01-05T09:00:00Z'],
    ],
    [
      'clusterroles',
      'a cluster role',
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'cluster-admin', creationTimestamp: ts(0) },
      },
      ['cluster-admin', '2026-01-05T09:00:00Z'],
    ],
    [
      'rolebindings',
      'a role binding',
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: meta('read-pods'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
        subjects: [
          { kind: 'User', name: 'jane' },
          { kind: 'ServiceAccount', name: 'bot', namespace: 'default' },
          { kind: 'User', name: 'bob' },
        ],
      },
      ['read-pods', 'Role/pod-reader', '10m', 'jane, bob', '', 'default:bot'],
    ],
    [
      'clusterrolebindings',
      'a cluster role binding',
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'kubeadm:cluster-admins', creationTimestamp: ts(0) },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'cluster-admin',
        },
        subjects: [{ kind: 'Group', name: 'kubeadm:cluster-admins' }],
      },
      [
        'kubeadm:cluster-admins',
        'ClusterRole/cluster-admin',
        '10m',
        '',
        'kubeadm:cluster-admins',
        '',
      ],
    ],
    [
      'limitranges',
      'a limit range',
      { apiVersion: 'v1', kind: 'LimitRange', metadata: meta('limits'), spec: { limits: [] } },
      ['limits', '2026-01-05T09:00:00Z'],
    ],
    [
      'widgets',
      'an unknown resource (NAME/AGE)',
      { apiVersion: 'v1', kind: 'Widget', metadata: meta('w') },
      ['w', '10m'],
    ],
  ])('should print %s: %s', (resource, _name, obj, cells) => {
    expect(printTable(resource, [obj], NOW).rows[0]?.cells).toEqual(cells);
  });

  it('should print events with OBJECT kind/name, count 1 by default and wide columns last', () => {
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'my-app-x.1812', namespace: 'default', creationTimestamp: ts(0) },
      involvedObject: { kind: 'Pod', name: 'my-app-x', fieldPath: 'spec.containers{app}' },
      reason: 'Pulled',
      message: 'Container image "nginx:1.27" already present on machine ',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: ts(60_000),
      lastTimestamp: ts(8 * 60_000),
      type: 'Normal',
    };
    const t = printTable('events', [ev], NOW);
    expect(t.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Message',
    ]);
    expect(t.rows[0]?.cells).toEqual([
      '2m',
      'Normal',
      'Pulled',
      'pod/my-app-x',
      'spec.containers{app}',
      'kubelet, node-1',
      'Container image "nginx:1.27" already present on machine',
      '9m',
      1,
      'my-app-x.1812',
    ]);
  });

  it('should keep the resourceVersion of the list in the table metadata', () => {
    expect(printTable('pods', [], { ...NOW, resourceVersion: '42' }).metadata).toEqual({
      resourceVersion: '42',
    });
  });

  it('should cut a long LoadBalancer ingress list only when not wide', () => {
    const svc: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('lb'),
      spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.9'] },
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.10' }, { ip: '203.0.113.11' }] } },
    };
    expect(printTable('services', [svc], NOW).rows[0]?.cells[3]).toBe('203.0.113.10,203.0.113.11');
    expect(printTable('services', [svc], { ...NOW, wide: false }).rows[0]?.cells[3]).toBe(
      '203.0.113.10,...',
    );
  });
});
