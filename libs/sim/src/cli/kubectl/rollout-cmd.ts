// kubectl rollout status|history|undo|restart|pause|resume for Deployments
// (kubectl pkg/polymorphichelpers: rollout_status.go, history.go, rollback.go).

import type { KubeObject, ResourceInfo } from '../../model';
import { formatTabbed, DESCRIBE_TABWRITER } from '../text/tab-writer';
import { flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import {
  asObject,
  isOk,
  listItems,
  MAX_WAIT_MS,
  Out,
  typeAndName,
  WAIT_STEP_MS,
} from './kubectl-env';
import { qualifiedKind } from './kube-resources';
import { deepEqual } from './three-way-merge';

const REVISION = 'deployment.kubernetes.io/revision';

type Dep = KubeObject & {
  spec?: {
    replicas?: number;
    template?: { metadata?: KubeObject['metadata']; spec?: unknown };
    paused?: boolean;
    selector?: { matchLabels?: Record<string, string> };
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    conditions?: { type: string; reason?: string }[];
  };
};

/** rollout_status.go DeploymentStatusViewer.Status: [message, done, error]. */
export function deploymentStatus(d: Dep): [string, boolean, string | undefined] {
  const name = d.metadata?.name;
  const st = d.status ?? {};
  if ((d.metadata?.generation ?? 0) <= (st.observedGeneration ?? 0)) {
    if (
      st.conditions?.some(
        (c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded',
      )
    ) {
      return ['', false, `deployment "${name}" exceeded its progress deadline`];
    }
    const want = d.spec?.replicas ?? 1;
    const updated = st.updatedReplicas ?? 0;
    if (updated < want)
      return [
        `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`,
        false,
        undefined,
      ];
    if ((st.replicas ?? 0) > updated)
      return [
        `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`,
        false,
        undefined,
      ];
    if ((st.availableReplicas ?? 0) < updated)
      return [
        `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
        false,
        undefined,
      ];
    return [`deployment "${name}" successfully rolled out\n`, true, undefined];
  }
  return ['Waiting for deployment spec update to be observed...\n', false, undefined];
}

function ownedReplicaSets(env: KubectlEnv, d: Dep): KubeObject[] {
  const res = env.client.request({
    verb: 'list',
    resource: 'replicasets',
    namespace: env.namespace,
  });
  return listItems(res)
    .filter((rs) => rs.metadata?.ownerReferences?.some((o) => o.uid === d.metadata?.uid))
    .sort(
      (a, b) =>
        Number(a.metadata?.annotations?.[REVISION] ?? 0) -
        Number(b.metadata?.annotations?.[REVISION] ?? 0),
    );
}

function templateOf(rs: KubeObject): { metadata?: KubeObject['metadata']; spec?: unknown } {
  const t = JSON.parse(JSON.stringify((rs.spec as { template?: unknown })?.template ?? {})) as {
    metadata?: { labels?: Record<string, string> };
    spec?: unknown;
  };
  if (t.metadata?.labels) delete t.metadata.labels['pod-template-hash'];
  return t as { metadata?: KubeObject['metadata']; spec?: unknown };
}

export function runRollout(env: KubectlEnv): Out {
  const out = new Out();
  const [sub, ...rest] = env.args.positional;
  if (!sub || !['status', 'history', 'undo', 'restart', 'pause', 'resume'].includes(sub)) {
    return out.err(
      sub
        ? `error: unknown command "${sub}" for "kubectl rollout"\n`
        : 'error: You must specify a subcommand: history, pause, restart, resume, status, undo\n',
    );
  }
  const t = typeAndName(env, out, rest);
  if (!t) return out.exitCode ? out : out.fail('required resource not specified');
  if (t.info.resource !== 'deployments')
    return out.fail(
      `no ${sub === 'status' ? 'status viewer' : sub === 'history' ? 'history viewer' : 'rollbacker'} has been implemented for ${t.info.kind}`,
    );
  const info: ResourceInfo = t.info;
  const get = () =>
    env.client.request({
      verb: 'get',
      resource: 'deployments',
      namespace: env.namespace,
      name: t.name,
    });
  const res = get();
  if (!isOk(res)) return out.apiError(env, res);
  const d = asObject(res) as Dep;
  const label = `${qualifiedKind(info)}/${t.name}`;
  const patch = (body: unknown, patchType: 'strategic' | 'json' = 'strategic') => {
    const r = env.client.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: env.namespace,
      name: t.name,
      patchType,
      body,
      query: { fieldManager: 'kubectl-rollout' },
    });
    if (!isOk(r)) out.apiError(env, r);
    return isOk(r);
  };
  switch (sub) {
    case 'status': {
      let last = '';
      let cur = d;
      const timeout = Math.min(
        parseDuration(flag(env.args, 'timeout')) || MAX_WAIT_MS,
        MAX_WAIT_MS,
      );
      const explicit = parseDuration(flag(env.args, 'timeout'));
      for (let t0 = 0; t0 <= timeout; t0 += WAIT_STEP_MS) {
        const [msg, done, err] = deploymentStatus(cur);
        if (err) return out.fail(err);
        if (msg !== last) out.out(msg);
        last = msg;
        if (done || flag(env.args, 'watch', 'w') === 'false') return out;
        env.advance(WAIT_STEP_MS);
        const r = get();
        if (!isOk(r)) return out.apiError(env, r);
        cur = asObject(r) as Dep;
      }
      // without --timeout the real command waits until interrupted: Ctrl-C ends it (exit 130)
      return explicit ? out.fail('timed out waiting for the condition') : out.err('^C\n', 130);
    }
    case 'history': {
      const sets = ownedReplicaSets(env, d);
      const rev = flag(env.args, 'revision');
      if (rev) {
        const rs = sets.find((s) => s.metadata?.annotations?.[REVISION] === rev);
        if (!rs) return out.fail(`unable to find the specified revision`);
        return out.out(`${label} with revision #${rev}\nPod Template:\n${podTemplateText(rs)}\n`);
      }
      if (sets.length === 0) return out.out(`No rollout history found.\n`);
      let table = 'REVISION\tCHANGE-CAUSE\n';
      for (const rs of sets)
        table += `${rs.metadata?.annotations?.[REVISION] ?? '0'}\t${rs.metadata?.annotations?.['kubernetes.io/change-cause'] ?? '<none>'}\n`;
      return out.out(`${label} \n${formatTabbed(table, DESCRIBE_TABWRITER)}\n`);
    }
    case 'undo': {
      const sets = ownedReplicaSets(env, d);
      const toRev = Number(flag(env.args, 'to-revision') ?? '0');
      const currentRev = d.metadata?.annotations?.[REVISION];
      let target: KubeObject | undefined;
      if (toRev > 0) {
        target = sets.find((s) => Number(s.metadata?.annotations?.[REVISION]) === toRev);
        if (!target) return out.fail(`unable to find specified revision ${toRev} in history`);
      } else {
        const older = sets.filter((s) => s.metadata?.annotations?.[REVISION] !== currentRev);
        target = older[older.length - 1];
        if (!target) return out.fail(`no rollout history found for deployment "${t.name}"`);
      }
      const tpl = templateOf(target);
      const liveTpl = JSON.parse(JSON.stringify(d.spec?.template ?? {})) as {
        metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      };
      if (deepEqual(tpl, liveTpl))
        return out.out(
          `${label} skipped rollback (current template already matches revision ${target.metadata?.annotations?.[REVISION]})\n`,
        );
      // kubectl's rollback (polymorphichelpers/rollback.go) replaces the whole template with a
      // JSON patch, so fields added since that revision (a nodeSelector, say) go away too.
      const body = [{ op: 'replace', path: '/spec/template', value: tpl }];
      if (patch(body, 'json')) out.out(`${label} rolled back\n`);
      return out;
    }
    case 'restart': {
      if (d.spec?.paused)
        return out.fail(
          `deployments "${t.name}" can't restart paused deployment (run rollout resume first)`,
        );
      const at = new Date(env.client.nowWallMs()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      if (
        patch({
          spec: {
            template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': at } } },
          },
        })
      )
        out.out(`${label} restarted\n`);
      return out;
    }
    default: {
      const pause = sub === 'pause';
      if (!!d.spec?.paused === pause)
        return out.fail(`deployments "${t.name}" is ${pause ? 'already paused' : 'not paused'}`);
      if (patch({ spec: { paused: pause ? true : null } }))
        out.out(`${label} ${pause ? 'paused' : 'resumed'}\n`);
      return out;
    }
  }
}

function podTemplateText(rs: KubeObject): string {
  const t = (
    rs.spec as {
      template?: {
        metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
        spec?: { containers?: { name: string; image: string }[] };
      };
    }
  )?.template;
  const labels = Object.entries(t?.metadata?.labels ?? {}).map(([k, v]) => `${k}=${v}`);
  let s = `  Labels:\t${labels[0] ?? '<none>'}\n${labels
    .slice(1)
    .map((l) => `  \t${l}\n`)
    .join('')}  Containers:\n`;
  for (const c of t?.spec?.containers ?? [])
    s += `   ${c.name}:\n    Image:\t${c.image}\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n`;
  s += '  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n';
  return formatTabbed(s, DESCRIBE_TABWRITER);
}

export function parseDuration(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const m = /^(\d+)(ms|s|m|h)?$/.exec(s);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : m[2] === 'h' ? n * 3_600_000 : n * 1000;
}
