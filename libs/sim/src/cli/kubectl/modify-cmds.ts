// Verbs that change one field of live objects: scale, label, annotate, patch, set image, cordon,
// uncordon, taint, drain, edit. Each prints kubectl's `<kind>/<name> <past tense>` line.

import type { KubeObject, ResourceInfo } from '../../model';
import { resourceInfo } from '../../model';
import { parse as parseYaml } from 'yaml';
import { boolFlag, flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import {
  asObject,
  isOk,
  listItems,
  MAX_WAIT_MS,
  Out,
  typeAndName,
  unknownResource,
  WAIT_STEP_MS,
} from './kubectl-env';
import { toYaml } from './kube-output';
import { qualifiedKind, resolveResource } from './kube-resources';
import { deepEqual, threeWayPatch } from './three-way-merge';

function getObj(
  env: KubectlEnv,
  out: Out,
  info: ResourceInfo,
  name: string,
): KubeObject | undefined {
  const res = env.client.request({
    verb: 'get',
    resource: info.resource,
    namespace: info.namespaced ? env.namespace : undefined,
    name,
  });
  if (!isOk(res)) {
    out.apiError(env, res);
    return undefined;
  }
  return asObject(res);
}

function patch(
  env: KubectlEnv,
  out: Out,
  info: ResourceInfo,
  name: string,
  body: unknown,
  type: 'merge' | 'strategic' | 'json' = 'merge',
): KubeObject | undefined {
  const res = env.client.request({
    verb: 'patch',
    resource: info.resource,
    namespace: info.namespaced ? env.namespace : undefined,
    name,
    patchType: type,
    body,
    query: { fieldManager: `kubectl-${env.args.positional.length ? 'patch' : 'edit'}` },
  });
  if (!isOk(res)) {
    out.apiError(env, res);
    return undefined;
  }
  return asObject(res);
}

/** TYPE NAME... or TYPE/NAME... into (info, name) pairs. */
function targets(
  env: KubectlEnv,
  out: Out,
  args: string[],
): { info: ResourceInfo; name: string }[] | undefined {
  const [first, ...rest] = args;
  if (!first) return [];
  if (first.includes('/')) {
    const list: { info: ResourceInfo; name: string }[] = [];
    for (const a of args.filter((x) => x.includes('/'))) {
      const [t, n] = a.split('/', 2) as [string, string];
      const info = resolveResource(t);
      if (!info) {
        unknownResource(out, t);
        return undefined;
      }
      list.push({ info, name: n });
    }
    return list;
  }
  const info = resolveResource(first);
  if (!info) {
    unknownResource(out, first);
    return undefined;
  }
  return rest.map((name) => ({ info, name }));
}

export function runScale(env: KubectlEnv): Out {
  const out = new Out();
  const replicas = flag(env.args, 'replicas');
  if (replicas === undefined) return out.fail('required flag(s) "replicas" not set');
  const n = Number(replicas);
  if (!Number.isInteger(n) || n < 0)
    return out.fail(
      n < 0
        ? 'The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0'
        : `invalid argument "${replicas}" for "--replicas" flag: strconv.ParseInt: parsing "${replicas}": invalid syntax`,
    );
  const list = targets(env, out, env.args.positional);
  if (!list) return out;
  if (list.length === 0) return out.fail('resource(s) were provided, but no name was specified');
  for (const { info, name } of list) {
    if (!['deployments', 'replicasets'].includes(info.resource)) {
      out.fail(`cannot scale ${info.kind}`);
      continue;
    }
    const res = env.client.request({
      verb: 'patch',
      resource: info.resource,
      namespace: env.namespace,
      name,
      subresource: 'scale',
      patchType: 'merge',
      body: { spec: { replicas: n } },
    });
    if (!isOk(res)) {
      out.apiError(env, res);
      continue;
    }
    out.out(`${qualifiedKind(info)}/${name} scaled\n`);
  }
  return out;
}

export function runAnnotateOrLabel(env: KubectlEnv, which: 'label' | 'annotate'): Out {
  const out = new Out();
  const pos = env.args.positional;
  const changes = pos.filter(
    (p) =>
      /^[^/=]+=.*$|^[^=]+-$/.test(p) && !(p.includes('/') && !p.includes('=') && !p.endsWith('-')),
  );
  const objs = pos.filter((p) => !changes.includes(p));
  if (changes.length === 0)
    return out.fail(
      `at least one ${which === 'label' ? 'label' : 'annotation'} update is required`,
    );
  const list = targets(env, out, objs);
  if (!list) return out;
  if (list.length === 0 && !boolFlag(env.args, 'all'))
    return out.fail(
      'one or more resources must be specified as <resource> <name> or <resource>/<name>',
    );
  const field = which === 'label' ? 'labels' : 'annotations';
  for (const { info, name } of list) {
    const obj = getObj(env, out, info, name);
    if (!obj) continue;
    const current = { ...((obj.metadata?.[field] as Record<string, string> | undefined) ?? {}) };
    const p: Record<string, string | null> = {};
    let added = false;
    let failed = false;
    for (const c of changes) {
      if (c.endsWith('-') && !c.includes('=')) {
        const k = c.slice(0, -1);
        if (k in current) p[k] = null;
        else out.err(`${which === 'label' ? 'label' : 'annotation'} "${k}" not found.\n`, 0);
        continue;
      }
      const i = c.indexOf('=');
      const k = c.slice(0, i);
      const v = c.slice(i + 1);
      if (which === 'label' && !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(v)) {
        out.fail(
          `invalid label value: "${c}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
        );
        failed = true;
        break;
      }
      if (k in current && current[k] !== v && !boolFlag(env.args, 'overwrite')) {
        out.fail(`'${k}' already has a value (${current[k]}), and --overwrite is false`);
        failed = true;
        break;
      }
      if (current[k] !== v) p[k] = v;
      added = true;
    }
    if (failed) continue;
    const verb = which === 'label' ? (added ? 'labeled' : 'unlabeled') : 'annotated';
    if (Object.keys(p).length === 0) {
      out.out(`${qualifiedKind(info)}/${name} not ${verb}\n`);
      continue;
    }
    if (patch(env, out, info, name, { metadata: { [field]: p } }))
      out.out(`${qualifiedKind(info)}/${name} ${verb}\n`);
  }
  return out;
}

export function runPatch(env: KubectlEnv): Out {
  const out = new Out();
  const t = typeAndName(env, out, env.args.positional);
  if (!t)
    return out.exitCode ? out : out.fail('resource(s) were provided, but no name was specified');
  const raw =
    flag(env.args, 'p', 'patch') ??
    (flag(env.args, 'patch-file')
      ? env.fs.read(env.resolve(flag(env.args, 'patch-file') as string))
      : undefined);
  if (raw === undefined)
    return out.fail('must specify --patch or --patch-file containing the contents of the patch');
  const type = (flag(env.args, 'type') ?? 'strategic') as 'strategic' | 'merge' | 'json';
  if (!['strategic', 'merge', 'json'].includes(type))
    return out.fail(`--type must be one of [json merge strategic], not "${type}"`);
  let body: unknown;
  try {
    body = parseYaml(raw, { maxAliasCount: 10 });
  } catch {
    return out.fail(`unable to parse "${raw}": yaml: did not find expected node content`);
  }
  if (type === 'json' && !Array.isArray(body))
    return out.fail(
      'unable to parse patch: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
  const before = getObj(env, new Out(), t.info, t.name);
  const after = patch(env, out, t.info, t.name, body, type);
  if (!after) return out;
  const same =
    before &&
    deepEqual(
      { ...before, metadata: { ...before.metadata, resourceVersion: '', managedFields: [] } },
      { ...after, metadata: { ...after.metadata, resourceVersion: '', managedFields: [] } },
    );
  return out.out(`${qualifiedKind(t.info)}/${t.name} patched${same ? ' (no change)' : ''}\n`);
}

export function runSetImage(env: KubectlEnv): Out {
  const out = new Out();
  const [sub, ...rest] = env.args.positional;
  if (sub !== 'image') return out.err(`error: unknown command "${sub ?? ''}" for "kubectl set"\n`);
  const pairs = rest.filter((r) => r.includes('=') && !r.includes('/'));
  const objs = rest.filter((r) => !pairs.includes(r));
  if (pairs.length === 0) return out.fail('at least one image update is required');
  const list = targets(env, out, objs);
  if (!list) return out;
  for (const { info, name } of list) {
    const obj = getObj(env, out, info, name);
    if (!obj) continue;
    const spec =
      info.resource === 'pods'
        ? (obj.spec as Record<string, unknown>)
        : ((obj.spec as { template?: { spec?: Record<string, unknown> } })?.template?.spec ?? {});
    const containers = (spec.containers as { name: string; image: string }[] | undefined) ?? [];
    const updates: { name: string; image: string }[] = [];
    for (const p of pairs) {
      const [cname, image] = p.split('=', 2) as [string, string];
      const targetsC = cname === '*' ? containers : containers.filter((c) => c.name === cname);
      if (targetsC.length === 0) {
        out.fail(`unable to find container named "${cname}"`);
        continue;
      }
      for (const c of targetsC) updates.push({ name: c.name, image });
    }
    if (updates.length === 0) continue;
    const body =
      info.resource === 'pods'
        ? { spec: { containers: updates } }
        : { spec: { template: { spec: { containers: updates } } } };
    if (patch(env, out, info, name, body, 'strategic'))
      out.out(`${qualifiedKind(info)}/${name} image updated\n`);
  }
  return out;
}

export function runCordon(env: KubectlEnv, cordon: boolean): Out {
  const out = new Out();
  const nodes = env.args.positional.map((p) => p.replace(/^(node|nodes|no)\//, ''));
  if (nodes.length === 0)
    return out.fail(
      `USAGE: ${cordon ? 'cordon' : 'uncordon'} NODE [flags]\nSee 'kubectl ${cordon ? 'cordon' : 'uncordon'} -h' for help and examples`,
    );
  const info = resourceInfo('nodes') as ResourceInfo;
  for (const n of nodes) {
    const node = getObj(env, out, info, n);
    if (!node) continue;
    const current = (node.spec as { unschedulable?: boolean })?.unschedulable === true;
    if (current === cordon) {
      out.out(`node/${n} already ${cordon ? 'cordoned' : 'uncordoned'}\n`);
      continue;
    }
    if (patch(env, out, info, n, { spec: { unschedulable: cordon ? true : null } }))
      out.out(`node/${n} ${cordon ? 'cordoned' : 'uncordoned'}\n`);
  }
  return out;
}

export function runTaint(env: KubectlEnv): Out {
  const out = new Out();
  const [type, nodeName, ...specs] = env.args.positional;
  const info = type ? resolveResource(type.split('/')[0] as string) : undefined;
  if (!type || !info || info.resource !== 'nodes')
    return out.fail(
      type && !type.startsWith('no')
        ? `invalid resource type ${type}, only node types are supported`
        : 'at least one taint update is required',
    );
  const name = type.includes('/') ? (type.split('/')[1] as string) : nodeName;
  const taintSpecs = type.includes('/')
    ? [nodeName, ...specs].filter((x): x is string => !!x)
    : specs;
  if (!name || taintSpecs.length === 0) return out.fail('at least one taint update is required');
  const node = getObj(env, out, info, name);
  if (!node) return out;
  let taints = [
    ...((node.spec as { taints?: { key: string; value?: string; effect: string }[] })?.taints ??
      []),
  ];
  let removed = false;
  let added = false;
  for (const s of taintSpecs) {
    if (s.endsWith('-')) {
      const [kv, effect] = s.slice(0, -1).split(':') as [string, string | undefined];
      const key = kv.split('=')[0] as string;
      const before = taints.length;
      taints = taints.filter((t) => !(t.key === key && (!effect || t.effect === effect)));
      if (taints.length === before) return out.fail(`taint "${s.slice(0, -1)}" not found`);
      removed = true;
      continue;
    }
    const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(s);
    if (!m)
      return out.fail(`invalid taint spec: ${s}, unknown taint effect: ${s.split(':')[1] ?? ''}`);
    const [key, value, effect] = [m[1] as string, m[2], m[3] as string];
    if (
      taints.some((t) => t.key === key && t.effect === effect) &&
      !boolFlag(env.args, 'overwrite')
    ) {
      return out.fail(
        `node ${name} already has ${key} taint(s) with same effect(s) and --overwrite is false`,
      );
    }
    taints = taints.filter((t) => !(t.key === key && t.effect === effect));
    taints.push({ key, ...(value ? { value } : {}), effect });
    added = true;
  }
  if (patch(env, out, info, name, { spec: { taints } }))
    out.out(`node/${name} ${added ? (removed ? 'modified' : 'tainted') : 'untainted'}\n`);
  return out;
}

export function runDrain(env: KubectlEnv): Out {
  const out = runCordon(env, true);
  if (out.exitCode) return out;
  const nodeName = env.args.positional[0]?.replace(/^(node|nodes|no)\//, '') as string;
  const podsRes = env.client.request({
    verb: 'list',
    resource: 'pods',
    query: { fieldSelector: `spec.nodeName=${nodeName}` },
  });
  if (!isOk(podsRes)) return out.apiError(env, podsRes);
  const pods = listItems(podsRes).filter(
    (p) =>
      (p.status as { phase?: string })?.phase !== 'Succeeded' &&
      (p.status as { phase?: string })?.phase !== 'Failed',
  );
  const mirror = pods.filter((p) => p.metadata?.annotations?.['kubernetes.io/config.mirror']);
  const daemon = pods.filter((p) =>
    p.metadata?.ownerReferences?.some((o) => o.kind === 'DaemonSet'),
  );
  const unmanaged = pods.filter(
    (p) => !p.metadata?.ownerReferences?.some((o) => o.controller) && !mirror.includes(p),
  );
  const errors: string[] = [];
  if (unmanaged.length && !boolFlag(env.args, 'force'))
    errors.push(
      `cannot delete Pods that declare no controller (use --force to override): ${unmanaged.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ')}`,
    );
  if (daemon.length && !boolFlag(env.args, 'ignore-daemonsets'))
    errors.push(
      `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${daemon.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ')}`,
    );
  if (errors.length) {
    return out.err(
      `error: unable to drain node "${nodeName}" due to error: ${errors.length > 1 ? `[${errors.join(', ')}]` : errors[0]}, continuing command...\nThere are pending nodes to be drained:\n ${nodeName}\n${errors.map((e) => `error: ${e}\n`).join('')}`,
    );
  }
  if (daemon.length)
    out.err(
      `Warning: ignoring DaemonSet-managed Pods: ${daemon.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ')}\n`,
      0,
    );
  if (unmanaged.length)
    out.err(
      `Warning: deleting Pods that declare no controller: ${unmanaged.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ')}\n`,
      0,
    );
  const victims = pods.filter((p) => !mirror.includes(p) && !daemon.includes(p));
  for (const p of victims) out.out(`evicting pod ${p.metadata?.namespace}/${p.metadata?.name}\n`);
  for (const p of victims) {
    const res = env.client.request({
      verb: 'create',
      resource: 'pods',
      namespace: p.metadata?.namespace,
      name: p.metadata?.name,
      subresource: 'eviction',
      body: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: p.metadata?.name, namespace: p.metadata?.namespace },
      },
    });
    if (!isOk(res) && res.code !== 201) {
      out.apiError(env, res);
      continue;
    }
  }
  for (let t = 0; t < MAX_WAIT_MS; t += WAIT_STEP_MS) {
    const left = victims.filter(
      (p) =>
        (
          env.client.lab.request(env.client.user, {
            verb: 'get',
            resource: 'pods',
            namespace: p.metadata?.namespace,
            name: p.metadata?.name,
          }) as { code?: number }
        ).code !== 404,
    );
    if (left.length === 0) break;
    env.advance(WAIT_STEP_MS);
  }
  for (const p of victims) out.out(`pod/${p.metadata?.name} evicted\n`);
  return out.out(`node/${nodeName} drained\n`);
}

/**
 * kubectl edit: the first call stages the object as YAML and asks the UI to open the editor; the
 * UI runs `afterSave` (the same command with --edited-file) once the learner saves.
 */
export function runEdit(env: KubectlEnv): Out {
  const out = new Out();
  const t = typeAndName(env, out, env.args.positional);
  if (!t)
    return out.exitCode
      ? out
      : out.fail(
          'edit requires a resource and name in this lab (e.g. kubectl edit deployment/my-app)',
        );
  const edited = flag(env.args, 'edited-file');
  const live = getObj(env, out, t.info, t.name);
  if (!live) return out;
  if (!edited) {
    const path = env.editorFile;
    const header = `# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n`;
    const shown = { ...live, metadata: { ...live.metadata } } as KubeObject;
    delete (shown.metadata as { managedFields?: unknown }).managedFields;
    env.fs.write(path, header + toYaml(shown));
    const ns = t.info.namespaced ? ` -n ${env.namespace}` : '';
    out.openEditor = {
      path,
      host: env.host,
      afterSave: `kubectl edit ${t.info.resource}/${t.name}${ns} --edited-file=${path}`,
    };
    return out;
  }
  const text = env.fs.read(env.resolve(edited));
  const stripped = (text ?? '')
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
  if (stripped.trim() === '') return out.err('Edit cancelled, no changes made.\n', 0);
  let doc: unknown;
  try {
    doc = parseYaml(stripped, { maxAliasCount: 10 });
  } catch (e) {
    return out.fail(
      `error: ${t.info.resource} "${t.name}" is invalid: ${e instanceof Error ? e.message.split('\n')[0] : ''}`,
    );
  }
  const current = { ...live, metadata: { ...live.metadata } } as KubeObject;
  delete (current.metadata as { managedFields?: unknown }).managedFields;
  const p = threeWayPatch(current, doc, current);
  delete (p as { status?: unknown }).status;
  if (Object.keys(p).length === 0) return out.err('Edit cancelled, no changes made.\n', 0);
  if (patch(env, out, t.info, t.name, p, 'merge'))
    out.out(`${qualifiedKind(t.info)}/${t.name} edited\n`);
  return out;
}
