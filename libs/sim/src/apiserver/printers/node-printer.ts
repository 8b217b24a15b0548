// printNode (k/k pkg/printers/internalversion/printers.go): STATUS from the Ready condition plus
// SchedulingDisabled, ROLES from node-role.kubernetes.io/<role> and kubernetes.io/role labels.

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, field, nameCol, rec, str } from './printer-types';

const LABEL_NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
const NODE_LABEL_ROLE = 'kubernetes.io/role';

export function nodeRoles(node: KubeObject): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(rec(node.metadata?.labels))) {
    if (k.startsWith(LABEL_NODE_ROLE_PREFIX)) {
      const role = k.slice(LABEL_NODE_ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === NODE_LABEL_ROLE && typeof v === 'string' && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

export function nodeStatusCell(node: KubeObject): string {
  const status: string[] = [];
  const ready = arr<Record<string, unknown>>(field(node, 'status', 'conditions')).find(
    (c) => c?.type === 'Ready',
  );
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (field(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function address(node: KubeObject, type: string): string {
  const a = arr<Record<string, unknown>>(field(node, 'status', 'addresses')).find(
    (x) => x?.type === type,
  );
  return str(a?.address) || '<none>';
}

export const nodePrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Status', 'The status of the node'),
    col('Roles', 'The roles of the node'),
    ageCol(),
    col('Version', 'Kubelet Version reported by the node.'),
    col(
      'Internal-IP',
      'List of addresses reachable to the node. Queried from cloud provider, if available.',
      1,
    ),
    col(
      'External-IP',
      'List of addresses reachable to the node. Queried from cloud provider, if available.',
      1,
    ),
    col(
      'OS-Image',
      'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
      1,
    ),
    col(
      'Kernel-Version',
      "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      1,
    ),
    col(
      'Container-Runtime',
      'Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
      1,
    ),
  ],
  row(node: KubeObject, ctx: PrintContext) {
    const info = rec(field(node, 'status', 'nodeInfo'));
    const roles = nodeRoles(node).join(',');
    return [
      str(node.metadata?.name),
      nodeStatusCell(node),
      roles || '<none>',
      timestampSince(node.metadata?.creationTimestamp, ctx.now),
      str(info.kubeletVersion),
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
};
