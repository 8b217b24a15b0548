// kubectl describe: pod, node, deployment, replicaset, daemonset, service, endpoints, configmap,
// secret, namespace, serviceaccount (plus a generic form),
// each followed by its Events, formatted by the describe tabwriter (0, 8, 2) (FIDELITY.md §2).

import type { KubeObject, ResourceInfo } from '../../model';
import { nodeRoles, selectorString, timestampSince } from '../../apiserver/printers';
import { formatTabbed, DESCRIBE_TABWRITER } from '../text/tab-writer';
import { flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, isOk, listItems, Out, unknownResource } from './kubectl-env';
import { resolveResource } from './kube-resources';
import {
  annotationsMultiline,
  DescribeWriter,
  eventsSection,
  labelsMultiline,
  rfc1123z,
} from './describe-text';
import { describeContainers, describeVolumes, tolerationsLines } from './describe-pod-parts';
import { describeDaemonSet, podTemplate } from './describe-workloads';
import { describePersistentVolume, describePersistentVolumeClaim } from './describe-storage';
import {
  describeConfigMap,
  describeNamespace,
  describeSecret,
  describeServiceAccount,
} from './describe-core';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function eventsFor(env: KubectlEnv, obj: KubeObject): KubeObject[] {
  const ns = obj.metadata?.namespace;
  const res = env.client.request({
    verb: 'list',
    resource: 'events',
    namespace: ns ?? 'default',
    query: {
      fieldSelector: `involvedObject.name=${obj.metadata?.name},involvedObject.namespace=${ns ?? ''},involvedObject.kind=${obj.kind},involvedObject.uid=${obj.metadata?.uid ?? ''}`,
    },
  });
  if (isOk(res)) return listItems(res);
  const all = env.client.request({ verb: 'list', resource: 'events', namespace: ns ?? 'default' });
  return listItems(all).filter(
    (e) =>
      (e as Any).involvedObject?.uid === obj.metadata?.uid ||
      ((e as Any).involvedObject?.name === obj.metadata?.name &&
        (e as Any).involvedObject?.kind === obj.kind),
  );
}

function header(w: DescribeWriter, o: KubeObject, namespaced: boolean): void {
  w.w(0, `Name:\t${o.metadata?.name}\n`);
  if (namespaced) w.w(0, `Namespace:\t${o.metadata?.namespace}\n`);
}

function controlledBy(o: KubeObject): string | undefined {
  const ref = o.metadata?.ownerReferences?.find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : undefined;
}

function describePod(w: DescribeWriter, pod: Any, now: number): void {
  header(w, pod as KubeObject, true);
  w.w(0, `Priority:\t${pod.spec?.priority ?? 0}\n`);
  if (pod.spec?.priorityClassName) w.w(0, `Priority Class Name:\t${pod.spec.priorityClassName}\n`);
  w.w(0, `Service Account:\t${pod.spec?.serviceAccountName ?? 'default'}\n`);
  w.w(
    0,
    `Node:\t${pod.spec?.nodeName ? `${pod.spec.nodeName}/${pod.status?.hostIP ?? ''}` : '<none>'}\n`,
  );
  if (pod.status?.startTime) w.w(0, `Start Time:\t${rfc1123z(pod.status.startTime)}\n`);
  labelsMultiline(w, 'Labels', pod.metadata?.labels);
  annotationsMultiline(w, pod.metadata?.annotations);
  if (pod.metadata?.deletionTimestamp) {
    w.w(
      0,
      `Status:\tTerminating (lasts ${timestampSinceMs(pod.metadata.deletionTimestamp, now)})\n`,
    );
    w.w(0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 30}s\n`);
  } else w.w(0, `Status:\t${pod.status?.phase ?? 'Pending'}\n`);
  if (pod.status?.reason) w.w(0, `Reason:\t${pod.status.reason}\n`);
  if (pod.status?.message) w.w(0, `Message:\t${pod.status.message}\n`);
  w.w(0, `IP:\t${pod.status?.podIP ?? ''}\n`);
  w.w(0, 'IPs:');
  const ips: { ip: string }[] =
    pod.status?.podIPs ?? (pod.status?.podIP ? [{ ip: pod.status.podIP }] : []);
  if (ips.length === 0) w.text += '\t<none>\n';
  else {
    w.text += '\n';
    for (const ip of ips) w.w(1, `IP:\t${ip.ip}\n`);
  }
  const ctl = controlledBy(pod as KubeObject);
  if (ctl) w.w(0, `Controlled By:\t${ctl}\n`);
  if (pod.spec?.initContainers?.length) {
    w.w(0, 'Init Containers:\n');
    describeContainers(w, pod.spec.initContainers, pod.status?.initContainerStatuses ?? [], pod);
  }
  w.w(0, 'Containers:\n');
  describeContainers(w, pod.spec?.containers ?? [], pod.status?.containerStatuses ?? [], pod);
  const conds: Any[] = pod.status?.conditions ?? [];
  if (conds.length) {
    w.w(0, 'Conditions:\n');
    w.w(1, 'Type\tStatus\n');
    for (const c of conds) w.w(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, pod.spec?.volumes ?? []);
  w.w(0, `QoS Class:\t${pod.status?.qosClass ?? 'BestEffort'}\n`);
  labelsMultiline(w, 'Node-Selectors', pod.spec?.nodeSelector);
  tolerationsLines(w, pod.spec?.tolerations ?? []);
}

function timestampSinceMs(iso: string, now: number): string {
  const s = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  return `${s}s`;
}

function replicaLine(o: Any, desired: number): string {
  return `${o.status?.updatedReplicas ?? 0} updated | ${desired} total | ${o.status?.availableReplicas ?? 0} available | ${o.status?.unavailableReplicas ?? 0} unavailable`;
}

function describeDeployment(env: KubectlEnv, w: DescribeWriter, d: Any): void {
  header(w, d as KubeObject, true);
  w.w(0, `CreationTimestamp:\t${rfc1123z(d.metadata?.creationTimestamp)}\n`);
  labelsMultiline(w, 'Labels', d.metadata?.labels);
  annotationsMultiline(w, d.metadata?.annotations);
  w.w(0, `Selector:\t${selectorString(d.spec?.selector)}\n`);
  const desired = d.spec?.replicas ?? 1;
  w.w(0, `Replicas:\t${replicaLine(d, desired)}\n`);
  w.w(0, `StrategyType:\t${d.spec?.strategy?.type ?? 'RollingUpdate'}\n`);
  w.w(0, `MinReadySeconds:\t${d.spec?.minReadySeconds ?? 0}\n`);
  if ((d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    const ru = d.spec?.strategy?.rollingUpdate ?? {};
    w.w(
      0,
      `RollingUpdateStrategy:\t${ru.maxUnavailable ?? '25%'} max unavailable, ${ru.maxSurge ?? '25%'} max surge\n`,
    );
  }
  podTemplate(w, d.spec?.template);
  const conds: Any[] = d.status?.conditions ?? [];
  if (conds.length) {
    w.w(0, 'Conditions:\n');
    w.w(1, 'Type\tStatus\tReason\n');
    w.w(1, '----\t------\t------\n');
    for (const c of conds) w.w(1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  const rsList = listItems(
    env.client.request({ verb: 'list', resource: 'replicasets', namespace: d.metadata?.namespace }),
  ).filter((rs) => rs.metadata?.ownerReferences?.some((o) => o.uid === d.metadata?.uid));
  const hash = (rs: KubeObject) =>
    JSON.stringify({
      ...((rs.spec as Any)?.template ?? {}),
      metadata: {
        ...((rs.spec as Any)?.template?.metadata ?? {}),
        labels: Object.fromEntries(
          Object.entries((rs.spec as Any)?.template?.metadata?.labels ?? {}).filter(
            ([k]) => k !== 'pod-template-hash',
          ),
        ),
      },
    });
  const liveHash = JSON.stringify({
    ...(d.spec?.template ?? {}),
    metadata: {
      ...(d.spec?.template?.metadata ?? {}),
      labels: d.spec?.template?.metadata?.labels ?? {},
    },
  });
  const newRs = rsList.find((rs) => hash(rs) === liveHash);
  const old = rsList.filter(
    (rs) =>
      rs !== newRs && ((rs.spec as Any)?.replicas ?? 0) + ((rs.status as Any)?.replicas ?? 0) > 0,
  );
  const rsText = (rs: KubeObject) =>
    `${rs.metadata?.name} (${(rs.status as Any)?.replicas ?? 0}/${(rs.spec as Any)?.replicas ?? 0} replicas created)`;
  w.w(0, `OldReplicaSets:\t${old.length ? old.map(rsText).join(', ') : '<none>'}\n`);
  w.w(0, `NewReplicaSet:\t${newRs ? rsText(newRs) : '<none>'}\n`);
}

function describeReplicaSet(env: KubectlEnv, w: DescribeWriter, rs: Any): void {
  header(w, rs as KubeObject, true);
  w.w(0, `Selector:\t${selectorString(rs.spec?.selector)}\n`);
  labelsMultiline(w, 'Labels', rs.metadata?.labels);
  annotationsMultiline(w, rs.metadata?.annotations);
  const ctl = controlledBy(rs as KubeObject);
  if (ctl) w.w(0, `Controlled By:\t${ctl}\n`);
  w.w(0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
  const pods = listItems(
    env.client.request({ verb: 'list', resource: 'pods', namespace: rs.metadata?.namespace }),
  ).filter((p) => p.metadata?.ownerReferences?.some((o) => o.uid === rs.metadata?.uid));
  const count = (ph: string) => pods.filter((p) => (p.status as Any)?.phase === ph).length;
  w.w(
    0,
    `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`,
  );
  podTemplate(w, rs.spec?.template);
}

function describeService(env: KubectlEnv, w: DescribeWriter, svc: Any): void {
  header(w, svc as KubeObject, true);
  labelsMultiline(w, 'Labels', svc.metadata?.labels);
  annotationsMultiline(w, svc.metadata?.annotations);
  const sel = Object.entries(svc.spec?.selector ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  w.w(0, `Selector:\t${sel || '<none>'}\n`);
  w.w(0, `Type:\t${svc.spec?.type ?? 'ClusterIP'}\n`);
  w.w(0, `IP Family Policy:\t${svc.spec?.ipFamilyPolicy ?? 'SingleStack'}\n`);
  w.w(0, `IP Families:\t${(svc.spec?.ipFamilies ?? ['IPv4']).join(',')}\n`);
  w.w(0, `IP:\t${svc.spec?.clusterIP ?? ''}\n`);
  w.w(0, `IPs:\t${(svc.spec?.clusterIPs ?? [svc.spec?.clusterIP]).join(',')}\n`);
  const ep = asObject(
    env.client.request({
      verb: 'get',
      resource: 'endpoints',
      namespace: svc.metadata?.namespace,
      name: svc.metadata?.name,
    }),
  );
  for (const p of svc.spec?.ports ?? []) {
    const name = p.name || '<unset>';
    w.w(0, `Port:\t${name}\t${p.port}/${p.protocol ?? 'TCP'}\n`);
    w.w(0, `TargetPort:\t${p.targetPort ?? p.port}/${p.protocol ?? 'TCP'}\n`);
    if (p.nodePort) w.w(0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol ?? 'TCP'}\n`);
    const addrs = ((ep as Any)?.subsets ?? []).flatMap((s: Any) =>
      (s.ports ?? [])
        .filter((sp: Any) => (sp.name ?? '') === (p.name ?? ''))
        .flatMap((sp: Any) => (s.addresses ?? []).map((a: Any) => `${a.ip}:${sp.port}`)),
    );
    w.w(0, `Endpoints:\t${addrs.length ? addrs.join(',') : ''}\n`);
  }
  w.w(0, `Session Affinity:\t${svc.spec?.sessionAffinity ?? 'None'}\n`);
  w.w(0, `Internal Traffic Policy:\t${svc.spec?.internalTrafficPolicy ?? 'Cluster'}\n`);
}

function describeEndpoints(w: DescribeWriter, ep: Any): void {
  header(w, ep as KubeObject, true);
  labelsMultiline(w, 'Labels', ep.metadata?.labels);
  annotationsMultiline(w, ep.metadata?.annotations);
  w.w(0, 'Subsets:\n');
  for (const s of ep.subsets ?? []) {
    w.w(1, `Addresses:\t${(s.addresses ?? []).map((a: Any) => a.ip).join(',') || '<none>'}\n`);
    w.w(
      1,
      `NotReadyAddresses:\t${(s.notReadyAddresses ?? []).map((a: Any) => a.ip).join(',') || '<none>'}\n`,
    );
    if (s.ports?.length) {
      w.w(1, 'Ports:\n');
      w.w(2, 'Name\tPort\tProtocol\n');
      w.w(2, '----\t----\t--------\n');
      for (const p of s.ports)
        w.w(2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol ?? 'TCP'}\n`);
    }
    w.text += '\n';
  }
}

function describeNode(env: KubectlEnv, w: DescribeWriter, node: Any, now: number): void {
  w.w(0, `Name:\t${node.metadata?.name}\n`);
  w.w(0, `Roles:\t${nodeRoles(node as KubeObject).join(',') || '<none>'}\n`);
  labelsMultiline(w, 'Labels', node.metadata?.labels);
  annotationsMultiline(w, node.metadata?.annotations);
  w.w(0, `CreationTimestamp:\t${rfc1123z(node.metadata?.creationTimestamp)}\n`);
  const taints: Any[] = node.spec?.taints ?? [];
  w.w(
    0,
    `Taints:\t${taints.length ? taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join('\n\t') : '<none>'}\n`,
  );
  w.w(0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
  const lease = asObject(
    env.client.request({
      verb: 'get',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name: node.metadata?.name,
    }),
  ) as Any | undefined;
  w.w(0, 'Lease:\n');
  w.w(1, `HolderIdentity:\t${lease?.spec?.holderIdentity ?? '<unset>'}\n`);
  w.w(
    1,
    `AcquireTime:\t${lease?.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`,
  );
  w.w(1, `RenewTime:\t${lease?.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
  w.w(0, 'Conditions:\n');
  w.w(1, 'Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
  w.w(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
  for (const c of node.status?.conditions ?? []) {
    w.w(
      1,
      `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
    );
  }
  w.w(0, 'Addresses:\n');
  for (const a of node.status?.addresses ?? []) w.w(1, `${a.type}:\t${a.address}\n`);
  for (const [title, list] of [
    ['Capacity', node.status?.capacity],
    ['Allocatable', node.status?.allocatable],
  ] as [string, Record<string, string> | undefined][]) {
    w.w(0, `${title}:\n`);
    for (const k of Object.keys(list ?? {}).sort())
      w.w(1, `${k}:\t${(list as Record<string, string>)[k]}\n`);
  }
  const info = node.status?.nodeInfo ?? {};
  w.w(0, 'System Info:\n');
  for (const [k, v] of [
    ['Machine ID', info.machineID],
    ['System UUID', info.systemUUID],
    ['Boot ID', info.bootID],
    ['Kernel Version', info.kernelVersion],
    ['OS Image', info.osImage],
    ['Operating System', info.operatingSystem],
    ['Architecture', info.architecture],
    ['Container Runtime Version', info.containerRuntimeVersion],
    ['Kubelet Version', info.kubeletVersion],
    ['Kube-Proxy Version', info.kubeProxyVersion],
  ]) {
    w.w(1, `${k}:\t${v ?? ''}\n`);
  }
  if (node.spec?.podCIDR) w.w(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if (node.spec?.podCIDRs) w.w(0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
  const pods = listItems(
    env.client.request({
      verb: 'list',
      resource: 'pods',
      query: { fieldSelector: `spec.nodeName=${node.metadata?.name}` },
    }),
  ).filter((p) => !['Succeeded', 'Failed'].includes((p.status as Any)?.phase));
  w.w(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.w(1, 'Namespace\tName\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.w(
    1,
    '---------\t----\t------------\t----------\t---------------\t-------------\tAge\n'.replace(
      /Age\n$/,
      '---\n',
    ),
  );
  for (const p of pods) {
    const c = ((p.spec as Any)?.containers ?? [])[0]?.resources ?? {};
    w.w(
      1,
      `${p.metadata?.namespace}\t${p.metadata?.name}\t${c.requests?.cpu ?? '0'} (0%)\t${c.limits?.cpu ?? '0'} (0%)\t${c.requests?.memory ?? '0'} (0%)\t${c.limits?.memory ?? '0'} (0%)\t${ageOf(p, now)}\n`,
    );
  }
}

function ageOf(o: KubeObject, now: number): string {
  return timestampSince(o.metadata?.creationTimestamp, now);
}

function describeGeneric(w: DescribeWriter, o: Any, info: ResourceInfo): void {
  header(w, o as KubeObject, info.namespaced);
  labelsMultiline(w, 'Labels', o.metadata?.labels);
  annotationsMultiline(w, o.metadata?.annotations);
}

export function runDescribe(env: KubectlEnv): Out {
  const out = new Out();
  const [first, ...rest] = env.args.positional;
  if (!first)
    return out.err(
      `You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n`,
    );
  let info: ResourceInfo | undefined;
  let names: string[];
  if (first.includes('/')) {
    const [t, n] = first.split('/', 2) as [string, string];
    info = resolveResource(t);
    names = [n];
  } else {
    info = resolveResource(first);
    names = rest;
  }
  if (!info) return unknownResource(out, first.split('/')[0] as string);
  const ns = info.namespaced ? env.namespace : undefined;
  let objects: KubeObject[] = [];
  if (names.length === 0) {
    const res = env.client.request({
      verb: 'list',
      resource: info.resource,
      namespace: env.allNamespaces ? undefined : ns,
      query: flag(env.args, 'l', 'selector')
        ? { labelSelector: flag(env.args, 'l', 'selector') }
        : {},
    });
    if (!isOk(res)) return out.apiError(env, res);
    objects = listItems(res);
    if (objects.length === 0)
      return out.err(
        info.namespaced && !env.allNamespaces
          ? `No resources found in ${env.namespace} namespace.\n`
          : 'No resources found\n',
        0,
      );
  } else {
    for (const n of names) {
      const res = env.client.request({
        verb: 'get',
        resource: info.resource,
        namespace: ns,
        name: n,
      });
      if (!isOk(res)) {
        if (res.code === 404) {
          // kubectl describe falls back to a prefix match on the name
          const list = listItems(
            env.client.request({ verb: 'list', resource: info.resource, namespace: ns }),
          ).filter((o) => o.metadata?.name?.startsWith(n));
          if (list.length) {
            objects.push(...list);
            continue;
          }
        }
        out.apiError(env, res);
        continue;
      }
      const o = asObject(res);
      if (o) objects.push(o);
    }
  }
  const now = env.client.nowWallMs();
  const texts: string[] = [];
  for (const o of objects) {
    const w = new DescribeWriter();
    const a = o as Any;
    switch (info.resource) {
      case 'pods':
        describePod(w, a, now);
        break;
      case 'deployments':
        describeDeployment(env, w, a);
        break;
      case 'replicasets':
        describeReplicaSet(env, w, a);
        break;
      case 'services':
        describeService(env, w, a);
        break;
      case 'endpoints':
        describeEndpoints(w, a);
        break;
      case 'nodes':
        describeNode(env, w, a, now);
        break;
      case 'daemonsets':
        describeDaemonSet(env, w, a);
        break;
      case 'configmaps':
        describeConfigMap(w, a);
        break;
      case 'secrets':
        describeSecret(w, a);
        break;
      case 'namespaces':
        describeNamespace(env, w, a);
        break;
      case 'serviceaccounts':
        describeServiceAccount(env, w, a);
        break;
      case 'persistentvolumes':
        describePersistentVolume(w, a, now);
        break;
      case 'persistentvolumeclaims':
        describePersistentVolumeClaim(env, w, a, now);
        break;
      default:
        describeGeneric(w, a, info);
    }
    // upstream's Secret and Namespace describers print no Events section
    if (info.resource !== 'secrets' && info.resource !== 'namespaces')
      eventsSection(w, eventsFor(env, { ...o, kind: o.kind || info.kind }), now);
    texts.push(formatTabbed(w.text, DESCRIBE_TABWRITER));
  }
  out.out(texts.join('\n\n'));
  return out;
}
