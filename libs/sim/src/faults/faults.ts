// Typed fault injections for break-fix exercises. Each fault is what happens to a real cluster
// (a daemon stops, an etcd member dies, a certificate expires, someone taints a node, a disk
// corrupts a value) and is recorded in the trace so the UI and graders can see what was broken.
// Faults that a person would do with kubectl go through the apiserver as kubernetes-admin;
// disasters (corrupt/delete) hit etcd directly, bypassing every check — as a disaster would.

import type { ApiResponse } from '../client/api-client';
import type { SimLab } from '../lab/lab';
import type { ProcessRef } from '../lab/lab-types';
import type { Taint } from '../model';
import { etcdKey, resourceInfo } from '../model/resources';

export type FaultSpec =
  | { type: 'stopComponent'; ref: ProcessRef }
  | { type: 'startComponent'; ref: ProcessRef }
  | { type: 'etcdMemberDown'; member: string }
  | { type: 'etcdMemberUp'; member: string }
  | { type: 'breakUserCredentials'; user: string }
  | { type: 'addNodeTaint'; node: string; taint: Taint }
  | { type: 'labelNode'; node: string; key: string; value: string | null }
  | { type: 'corruptObject'; resource: string; namespace?: string; name: string }
  | { type: 'deleteObject'; resource: string; namespace?: string; name: string };

export interface FaultResult {
  ok: boolean;
  message: string;
  /** trace seq of the fault event */
  traceSeq: number;
}

const ADMIN = 'kubernetes-admin';

function record(lab: SimLab, fault: FaultSpec, ok: boolean, message: string): FaultResult {
  const node =
    'ref' in fault
      ? fault.ref.node
      : 'node' in fault
        ? fault.node
        : 'member' in fault
          ? fault.member
          : undefined;
  const component =
    'ref' in fault
      ? fault.ref.component === 'containerd'
        ? 'kubelet'
        : fault.ref.component
      : fault.type.startsWith('etcd') ||
          fault.type === 'corruptObject' ||
          fault.type === 'deleteObject'
        ? 'etcd'
        : 'kube-apiserver';
  const traceSeq = lab.emit({
    component,
    ...(node ? { node } : {}),
    verb: `fault.${fault.type}`,
    message: `Fault injected: ${message}`,
    data: { fault, ok },
  });
  return { ok, message, traceSeq };
}

function describeRef(ref: ProcessRef): string {
  return ref.node ? `${ref.component} on ${ref.node}` : ref.component;
}

export function stopComponent(lab: SimLab, ref: ProcessRef): FaultResult {
  const ok = lab.stopProcess(ref);
  return record(
    lab,
    { type: 'stopComponent', ref },
    ok,
    ok ? `stopped ${describeRef(ref)}` : `${describeRef(ref)} was not running`,
  );
}

export function startComponent(lab: SimLab, ref: ProcessRef): FaultResult {
  const ok = lab.startProcess(ref);
  return record(
    lab,
    { type: 'startComponent', ref },
    ok,
    ok ? `started ${describeRef(ref)}` : `${describeRef(ref)} was already running`,
  );
}

export function etcdMemberDown(lab: SimLab, member: string): FaultResult {
  const ok = lab.stopProcess({ component: 'etcd', node: member });
  const healthy = lab.etcd.healthyMembers().length;
  return record(
    lab,
    { type: 'etcdMemberDown', member },
    ok,
    `etcd member ${member} down (${healthy}/${lab.etcd.members.length} healthy, quorum ${lab.etcd.hasQuorum() ? 'kept' : 'lost'})`,
  );
}

export function etcdMemberUp(lab: SimLab, member: string): FaultResult {
  const ok = lab.startProcess({ component: 'etcd', node: member });
  const healthy = lab.etcd.healthyMembers().length;
  return record(
    lab,
    { type: 'etcdMemberUp', member },
    ok,
    `etcd member ${member} up (${healthy}/${lab.etcd.members.length} healthy, quorum ${lab.etcd.hasQuorum() ? 'kept' : 'lost'})`,
  );
}

/** The user's kubeconfig now holds a certificate the apiserver does not trust (expired/re-issued CA). */
export function breakUserCredentials(lab: SimLab, user: string): FaultResult {
  const cur = lab.credentials(user);
  if (!cur)
    return record(lab, { type: 'breakUserCredentials', user }, false, `no kubeconfig user ${user}`);
  lab.setCredentials(
    user,
    cur.kind === 'token'
      ? { kind: 'token', token: `${cur.token}-revoked` }
      : { kind: 'cert', certId: `expired:${user}` },
  );
  return record(
    lab,
    { type: 'breakUserCredentials', user },
    true,
    `credentials of ${user} no longer valid`,
  );
}

function patchNode(lab: SimLab, node: string, body: unknown): ApiResponse {
  return lab.request(ADMIN, {
    verb: 'patch',
    resource: 'nodes',
    name: node,
    patchType: 'merge',
    body,
  });
}

export function addNodeTaint(lab: SimLab, node: string, taint: Taint): FaultResult {
  const cur = lab.peek('nodes', undefined, node) as { spec?: { taints?: Taint[] } } | undefined;
  if (!cur)
    return record(lab, { type: 'addNodeTaint', node, taint }, false, `node ${node} not found`);
  const taints = (cur.spec?.taints ?? []).filter(
    (t) => !(t.key === taint.key && t.effect === taint.effect),
  );
  taints.push(taint);
  const res = patchNode(lab, node, { spec: { taints } });
  const text = `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
  return record(
    lab,
    { type: 'addNodeTaint', node, taint },
    res.code === 200,
    `taint ${text} on node ${node} (HTTP ${res.code})`,
  );
}

export function labelNode(
  lab: SimLab,
  node: string,
  key: string,
  value: string | null,
): FaultResult {
  const res = patchNode(lab, node, { metadata: { labels: { [key]: value } } });
  const text = value === null ? `${key}-` : `${key}=${value}`;
  return record(
    lab,
    { type: 'labelNode', node, key, value },
    res.code === 200,
    `label ${text} on node ${node} (HTTP ${res.code})`,
  );
}

function keyOf(resource: string, namespace: string | undefined, name: string): string | undefined {
  const info = resourceInfo(resource);
  return info ? etcdKey(info, namespace, name) : undefined;
}

/** Overwrites the stored bytes with garbage (a bad disk, a bad `etcdctl put`). */
export function corruptObject(
  lab: SimLab,
  resource: string,
  namespace: string | undefined,
  name: string,
): FaultResult {
  const key = keyOf(resource, namespace, name);
  const fault: FaultSpec = { type: 'corruptObject', resource, namespace, name };
  if (!key || !lab.etcd.get(key))
    return record(lab, fault, false, `no key for ${resource} ${name}`);
  const cur = lab.etcd.get(key)?.value ?? '';
  // keep the length, flip the bytes: what a torn write looks like
  let garbage = 'k8s\u0000\u00ff';
  for (let i = 5; i < Math.min(cur.length, 200); i++)
    garbage += String.fromCharCode((cur.charCodeAt(i) * 31 + 7) & 0xff);
  lab.etcd.put(key, garbage);
  return record(lab, fault, true, `corrupted ${key} in etcd`);
}

/** Removes the key from etcd directly: no admission, no finalizers, no graceful deletion. */
export function deleteObject(
  lab: SimLab,
  resource: string,
  namespace: string | undefined,
  name: string,
): FaultResult {
  const key = keyOf(resource, namespace, name);
  const fault: FaultSpec = { type: 'deleteObject', resource, namespace, name };
  if (!key || !lab.etcd.get(key))
    return record(lab, fault, false, `no key for ${resource} ${name}`);
  lab.etcd.delete(key);
  return record(lab, fault, true, `deleted ${key} from etcd`);
}

/** Applies a fault described as data (scenario files). */
export function applyFault(lab: SimLab, fault: FaultSpec): FaultResult {
  switch (fault.type) {
    case 'stopComponent':
      return stopComponent(lab, fault.ref);
    case 'startComponent':
      return startComponent(lab, fault.ref);
    case 'etcdMemberDown':
      return etcdMemberDown(lab, fault.member);
    case 'etcdMemberUp':
      return etcdMemberUp(lab, fault.member);
    case 'breakUserCredentials':
      return breakUserCredentials(lab, fault.user);
    case 'addNodeTaint':
      return addNodeTaint(lab, fault.node, fault.taint);
    case 'labelNode':
      return labelNode(lab, fault.node, fault.key, fault.value);
    case 'corruptObject':
      return corruptObject(lab, fault.resource, fault.namespace, fault.name);
    case 'deleteObject':
      return deleteObject(lab, fault.resource, fault.namespace, fault.name);
  }
}
