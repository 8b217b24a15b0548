// describeContainers / describeVolumes / printTolerationsMultiline from kubectl's describe.go.

import type { DescribeWriter } from './describe-text';
import { rfc1123z } from './describe-text';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function probe(p: Any): string {
  const t = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.httpGet)
    return `http-get ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://${p.httpGet.host ?? ''}:${p.httpGet.port}${p.httpGet.path ?? ''} ${t}`;
  if (p.tcpSocket) return `tcp-socket :${p.tcpSocket.port} ${t}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${t}`;
  return `unknown ${t}`;
}

function state(w: DescribeWriter, title: string, s: Any | undefined): void {
  if (s?.running) {
    w.w(2, `${title}:\tRunning\n`);
    w.w(3, `Started:\t${rfc1123z(s.running.startedAt)}\n`);
  } else if (s?.waiting) {
    w.w(2, `${title}:\tWaiting\n`);
    if (s.waiting.reason) w.w(3, `Reason:\t${s.waiting.reason}\n`);
  } else if (s?.terminated) {
    const t = s.terminated;
    w.w(2, `${title}:\tTerminated\n`);
    if (t.reason) w.w(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.w(3, `Message:\t${t.message}\n`);
    w.w(3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if (t.signal) w.w(3, `Signal:\t${t.signal}\n`);
    w.w(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.w(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else w.w(2, `${title}:\tWaiting\n`);
}

/** `template` = a pod template (deployment/rs describe): names get one extra space, no status. */
export function describeContainers(
  w: DescribeWriter,
  containers: Any[],
  statuses: Any[],
  pod: Any | null,
  template = 0,
): void {
  const byName = new Map(statuses.map((s) => [s.name, s]));
  for (const c of containers) {
    const st = byName.get(c.name);
    w.w(1, `${template ? ' ' : ''}${c.name}:\n`);
    if (st) w.w(2, `Container ID:\t${st.containerID ?? ''}\n`);
    w.w(2, `Image:\t${c.image}\n`);
    if (st) w.w(2, `Image ID:\t${st.imageID ?? ''}\n`);
    const ports: Any[] = c.ports ?? [];
    const portStr = ports.map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
    const hostStr = ports.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    w.w(2, `${ports.length > 1 ? 'Ports' : 'Port'}:\t${portStr || '<none>'}\n`);
    w.w(2, `${ports.length > 1 ? 'Host Ports' : 'Host Port'}:\t${hostStr || '<none>'}\n`);
    if (c.command?.length) {
      w.w(2, 'Command:\n');
      for (const x of c.command) w.w(3, `${x}\n`);
    }
    if (c.args?.length) {
      w.w(2, 'Args:\n');
      for (const x of c.args) w.w(3, `${x}\n`);
    }
    if (st) {
      state(w, 'State', st.state);
      if (st.lastState?.terminated) state(w, 'Last State', st.lastState);
      w.w(2, `Ready:\t${st.ready ? 'True' : 'False'}\n`);
      w.w(2, `Restart Count:\t${st.restartCount ?? 0}\n`);
    }
    for (const [title, list] of [
      ['Limits', c.resources?.limits],
      ['Requests', c.resources?.requests],
    ] as [string, Record<string, string> | undefined][]) {
      if (!list || Object.keys(list).length === 0) continue;
      w.w(2, `${title}:\n`);
      for (const k of Object.keys(list).sort()) w.w(3, `${k}:\t${list[k]}\n`);
    }
    if (c.livenessProbe) w.w(2, `Liveness:\t${probe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.w(2, `Readiness:\t${probe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.w(2, `Startup:\t${probe(c.startupProbe)}\n`);
    const env: Any[] = c.env ?? [];
    if (env.length === 0) w.w(2, 'Environment:\t<none>\n');
    else {
      w.w(2, 'Environment:\n');
      for (const e of env) {
        if (e.valueFrom?.secretKeyRef)
          w.w(
            3,
            `${e.name}:\t<set to the key '${e.valueFrom.secretKeyRef.key}' in secret '${e.valueFrom.secretKeyRef.name}'>\tOptional: false\n`,
          );
        else if (e.valueFrom?.configMapKeyRef)
          w.w(
            3,
            `${e.name}:\t<set to the key '${e.valueFrom.configMapKeyRef.key}' of config map '${e.valueFrom.configMapKeyRef.name}'>\tOptional: false\n`,
          );
        else if (e.valueFrom?.fieldRef)
          w.w(
            3,
            `${e.name}:\t (${e.valueFrom.fieldRef.apiVersion ?? 'v1'}:${e.valueFrom.fieldRef.fieldPath})\n`,
          );
        else w.w(3, `${e.name}:\t${e.value ?? ''}\n`);
      }
    }
    const mounts: Any[] = c.volumeMounts ?? [];
    if (mounts.length === 0) w.w(2, 'Mounts:\t<none>\n');
    else {
      w.w(2, 'Mounts:\n');
      for (const m of [...mounts].sort((a, b) => (a.mountPath < b.mountPath ? -1 : 1)))
        w.w(3, `${m.mountPath} from ${m.name} (${m.readOnly ? 'ro' : 'rw'})\n`);
    }
  }
  void pod;
}

export function describeVolumes(w: DescribeWriter, volumes: Any[], level = 0): void {
  const prefix = level ? '  ' : '';
  if (volumes.length === 0) {
    w.w(0, `${prefix}Volumes:\t<none>\n`);
    return;
  }
  w.w(0, `${prefix}Volumes:\n`);
  for (const v of volumes) {
    w.w(1, `${prefix}${v.name}:\n`);
    const l = 2;
    if (v.emptyDir) {
      w.w(l, `${prefix}Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n`);
      w.w(l, `${prefix}Medium:\t${v.emptyDir.medium ?? ''}\n`);
      w.w(l, `${prefix}SizeLimit:\t${v.emptyDir.sizeLimit ?? '<unset>'}\n`);
    } else if (v.configMap) {
      w.w(l, `${prefix}Type:\tConfigMap (a volume populated by a ConfigMap)\n`);
      w.w(l, `${prefix}Name:\t${v.configMap.name}\n`);
      w.w(l, `${prefix}Optional:\t${v.configMap.optional ?? false}\n`);
    } else if (v.secret) {
      w.w(l, `${prefix}Type:\tSecret (a volume populated by a Secret)\n`);
      w.w(l, `${prefix}SecretName:\t${v.secret.secretName}\n`);
      w.w(l, `${prefix}Optional:\t${v.secret.optional ?? false}\n`);
    } else if (v.hostPath) {
      w.w(l, `${prefix}Type:\tHostPath (bare host directory volume)\n`);
      w.w(l, `${prefix}Path:\t${v.hostPath.path}\n`);
      w.w(l, `${prefix}HostPathType:\t${v.hostPath.type ?? ''}\n`);
    } else if (v.projected) {
      w.w(
        l,
        `${prefix}Type:\tProjected (a volume that contains injected data from multiple sources)\n`,
      );
      w.w(l, `${prefix}TokenExpirationSeconds:\t3607\n`);
      w.w(l, `${prefix}ConfigMapName:\tkube-root-ca.crt\n`);
      w.w(l, `${prefix}ConfigMapOptional:\t<nil>\n`);
      w.w(l, `${prefix}DownwardAPI:\ttrue\n`);
    } else if (v.persistentVolumeClaim) {
      w.w(
        l,
        `${prefix}Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n`,
      );
      w.w(l, `${prefix}ClaimName:\t${v.persistentVolumeClaim.claimName}\n`);
      w.w(l, `${prefix}ReadOnly:\tfalse\n`);
    }
  }
}

export function tolerationsLines(w: DescribeWriter, tolerations: Any[], indent = ''): void {
  w.w(0, `${indent}Tolerations:\t`);
  if (tolerations.length === 0) {
    w.text += '<none>\n';
    return;
  }
  tolerations.forEach((t, i) => {
    if (i !== 0) w.w(0, `${indent}\t`);
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null)
      s += ` for ${t.tolerationSeconds}s`;
    w.text += `${s}\n`;
  });
}
