// kubectl apply -f: client-side apply with the last-applied-configuration annotation and a 3-way
// patch, --server-side apply, --dry-run=client|server, and create -f (FIDELITY.md Observed / §11).

import type { KubeObject, ResourceInfo } from '../../model';
import { groupVersion, resourceForKind } from '../../model';
import { flag, flagAll, boolFlag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, dryRunMode, dryRunSuffix, isOk, Out } from './kubectl-env';
import { parseOutputFormat, printObjects } from './kube-output';
import { qualifiedKind } from './kube-resources';
import type { Manifest } from './manifest-reader';
import { readManifests } from './manifest-reader';
import { threeWayPatch } from './three-way-merge';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function sortKeysDeep(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sortKeysDeep(o[k])]),
  );
}

function sortedJson(v: unknown): string {
  return JSON.stringify(sortKeysDeep(v));
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Finds the resource for a manifest's apiVersion/kind, with kubectl's "no matches" error. */
export function mappingFor(m: Manifest, out: Out): ResourceInfo | undefined {
  const info = resourceForKind(String(m.obj.kind));
  if (!info || groupVersion(info) !== m.obj.apiVersion) {
    const gv = String(m.obj.apiVersion);
    out.err(
      `error: resource mapping not found for name: "${m.obj.metadata?.name ?? ''}" namespace: "${m.obj.metadata?.namespace ?? ''}" from "${m.source}": no matches for kind "${String(m.obj.kind)}" in version "${gv}"\nensure CRDs are installed first\n`,
    );
    return undefined;
  }
  return info;
}

/** The namespace an object goes to; reports kubectl's mismatch error. */
export function namespaceFor(
  env: KubectlEnv,
  info: ResourceInfo,
  obj: KubeObject,
  out: Out,
): string | undefined | false {
  if (!info.namespaced) return undefined;
  const own = obj.metadata?.namespace;
  if (own && env.namespaceExplicit && own !== env.namespace) {
    out.fail(
      `the namespace from the provided object "${own}" does not match the namespace "${env.namespace}". You must pass '--namespace=${own}' to perform this operation.`,
    );
    return false;
  }
  return own || env.namespace;
}

function filesOrUsage(env: KubectlEnv, out: Out, verb: string): string[] | undefined {
  const files = flagAll(env.args, 'f', 'filename');
  if (files.length === 0 && !flag(env.args, 'k', 'kustomize')) {
    out.err(
      `error: must specify one of -f and -k\nSee 'kubectl ${verb} -h' for help and examples\n`,
    );
    return undefined;
  }
  if (files.length === 0) {
    out.fail('kustomize is not supported in this lab');
    return undefined;
  }
  return files;
}

export function runApply(env: KubectlEnv): Out {
  const out = new Out();
  const files = filesOrUsage(env, out, 'apply');
  if (!files) return out;
  const mode = dryRunMode(env);
  if (mode === 'invalid')
    return out.fail(
      `Invalid dry-run value (${flag(env.args, 'dry-run')}). Must be "none", "server", or "client".`,
    );
  const format = parseOutputFormat(flag(env.args, 'o', 'output'));
  if (typeof format === 'string') return out.fail(format);
  const { manifests, errors } = readManifests(env, files);
  const printed: KubeObject[] = [];
  for (const m of manifests) {
    const info = mappingFor(m, out);
    if (!info) continue;
    const ns = namespaceFor(env, info, m.obj, out);
    if (ns === false) continue;
    const name = m.obj.metadata?.name;
    if (!name) {
      out.err(
        `error: error when retrieving current configuration of:\nResource: "${info.group ? `${info.group}/${info.version}, Resource=${info.resource}` : `/${info.version}, Resource=${info.resource}`}", GroupVersionKind: "${info.group ? `${info.group}/` : '/'}${info.version}, Kind=${info.kind}"\nName: "", Namespace: "${ns ?? ''}"\nfrom server for: "${m.source}": resource name may not be empty\n`,
      );
      continue;
    }
    const label = `${qualifiedKind(info)}/${name}`;
    if (boolFlag(env.args, 'server-side')) {
      const res = env.client.request({
        verb: 'patch',
        resource: info.resource,
        namespace: ns,
        name,
        patchType: 'apply',
        body: m.obj,
        query: {
          fieldManager: flag(env.args, 'field-manager') ?? 'kubectl',
          force: boolFlag(env.args, 'force-conflicts'),
          ...(mode === 'server' ? { dryRun: true } : {}),
        },
      });
      if (!isOk(res)) {
        out.apiError(env, res, { verb: 'patching', file: m.source, extra: '' });
        continue;
      }
      report(out, format, label, `serverside-applied${dryRunSuffix(mode)}`, asObject(res), printed);
      continue;
    }
    // kubectl works on the unstructured object: namespace set by the builder, the annotation
    // computed from it without itself (leaving `annotations: {}`), keys sorted when serialized
    const base = clone(m.obj);
    if (ns) base.metadata = { ...base.metadata, namespace: ns };
    const own = { ...(base.metadata?.annotations ?? {}) };
    delete own[LAST_APPLIED];
    const annotationSource = clone(base);
    annotationSource.metadata = { ...annotationSource.metadata, annotations: own };
    const modified = clone(base);
    modified.metadata = {
      ...modified.metadata,
      annotations: { ...own, [LAST_APPLIED]: `${sortedJson(annotationSource)}\n` },
    };
    const live = env.client.request({ verb: 'get', resource: info.resource, namespace: ns, name });
    if (live.code === 404) {
      if (mode === 'client') {
        report(out, format, label, `created${dryRunSuffix(mode)}`, modified, printed);
        continue;
      }
      const res = env.client.request({
        verb: 'create',
        resource: info.resource,
        namespace: ns,
        body: modified,
        query: {
          fieldManager: 'kubectl-client-side-apply',
          fieldValidation: 'Strict',
          ...(mode === 'server' ? { dryRun: true } : {}),
        },
      });
      if (!isOk(res)) {
        out.apiError(env, res, { verb: 'creating', file: m.source });
        continue;
      }
      report(out, format, label, `created${dryRunSuffix(mode)}`, asObject(res), printed);
      continue;
    }
    const current = asObject(live);
    if (!isOk(live) || !current) {
      out.apiError(env, live, { verb: 'retrieving', file: m.source, extra: '' });
      continue;
    }
    const lastText = current.metadata?.annotations?.[LAST_APPLIED];
    let original: unknown = {};
    if (lastText === undefined) {
      out.err(
        `Warning: resource ${info.resource}/${name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`,
        0,
      );
    } else {
      try {
        original = JSON.parse(lastText);
      } catch {
        original = {};
      }
    }
    const patch = threeWayPatch(original, modified, current);
    if (Object.keys(patch).length === 0) {
      report(out, format, label, `unchanged${dryRunSuffix(mode)}`, current, printed);
      continue;
    }
    if (mode === 'client') {
      report(out, format, label, `configured${dryRunSuffix(mode)}`, modified, printed);
      continue;
    }
    const res = env.client.request({
      verb: 'patch',
      resource: info.resource,
      namespace: ns,
      name,
      patchType: info.group === '' || resourceForKind(info.kind) ? 'strategic' : 'merge',
      body: patch,
      query: {
        fieldManager: 'kubectl-client-side-apply',
        fieldValidation: 'Strict',
        ...(mode === 'server' ? { dryRun: true } : {}),
      },
    });
    if (!isOk(res)) {
      out.apiError(env, res, {
        verb: 'patching',
        file: m.source,
        extra: `:\nResource: "${info.group}/${info.version}, Resource=${info.resource}", GroupVersionKind: "${info.group}/${info.version}, Kind=${info.kind}"\nName: "${name}", Namespace: "${ns ?? ''}"\nfor`,
      });
      continue;
    }
    report(out, format, label, `configured${dryRunSuffix(mode)}`, asObject(res), printed);
  }
  if (format.kind !== 'table' && printed.length > 0) {
    const [text] = printObjects(format, printed, printed.length === 1);
    out.out(text);
  }
  for (const e of errors) out.err(`${e}\n`);
  if (manifests.length === 0 && errors.length === 0) out.fail('no objects passed to apply');
  return out;
}

function report(
  out: Out,
  format: ReturnType<typeof parseOutputFormat>,
  label: string,
  what: string,
  obj: KubeObject | undefined,
  printed: KubeObject[],
): void {
  if (typeof format !== 'string' && format.kind !== 'table') {
    if (obj) printed.push(obj);
    return;
  }
  out.out(`${label} ${what}\n`);
}

/** kubectl create -f */
export function runCreateFromFiles(env: KubectlEnv): Out {
  const out = new Out();
  const files = filesOrUsage(env, out, 'create');
  if (!files) return out;
  const mode = dryRunMode(env);
  const format = parseOutputFormat(flag(env.args, 'o', 'output'));
  if (typeof format === 'string') return out.fail(format);
  const { manifests, errors } = readManifests(env, files);
  const printed: KubeObject[] = [];
  for (const m of manifests) {
    const info = mappingFor(m, out);
    if (!info) continue;
    const ns = namespaceFor(env, info, m.obj, out);
    if (ns === false) continue;
    const label = `${qualifiedKind(info)}/${m.obj.metadata?.name ?? m.obj.metadata?.generateName ?? ''}`;
    if (mode === 'client') {
      report(out, format, label, 'created (dry run)', m.obj, printed);
      continue;
    }
    const body = clone(m.obj);
    if (boolFlag(env.args, 'save-config')) {
      body.metadata = {
        ...body.metadata,
        annotations: {
          ...(body.metadata?.annotations ?? {}),
          [LAST_APPLIED]: `${JSON.stringify(m.obj)}\n`,
        },
      };
    }
    const res = env.client.request({
      verb: 'create',
      resource: info.resource,
      namespace: ns,
      body,
      query: {
        fieldManager: 'kubectl-create',
        fieldValidation: 'Strict',
        ...(mode === 'server' ? { dryRun: true } : {}),
      },
    });
    if (!isOk(res)) {
      out.apiError(env, res, { verb: 'creating', file: m.source });
      continue;
    }
    const created = asObject(res);
    report(
      out,
      format,
      `${qualifiedKind(info)}/${created?.metadata?.name ?? ''}`,
      `created${dryRunSuffix(mode)}`,
      created,
      printed,
    );
  }
  if (format.kind !== 'table' && printed.length > 0)
    out.out(printObjects(format, printed, printed.length === 1)[0]);
  for (const e of errors) out.err(`${e}\n`);
  return out;
}
