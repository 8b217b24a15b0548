// kubectl auth can-i (FIDELITY.md §4 / Observed): a SelfSubjectAccessReview, `yes` / `no` with exit
// 1 on no, and --list through a SelfSubjectRulesReview.

import { formatTabbed, GET_TABWRITER } from '../text/tab-writer';
import { boolFlag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { isOk, Out } from './kubectl-env';
import { resolveResource } from './kube-resources';

export function runAuth(env: KubectlEnv): Out {
  const out = new Out();
  const [sub, verb, resArg, nameArg] = env.args.positional;
  if (sub !== 'can-i')
    return out.err(
      sub
        ? `error: unknown command "${sub}" for "kubectl auth"\n`
        : 'error: You must specify a subcommand: can-i, reconcile, whoami\n',
    );
  const ns = env.allNamespaces ? '' : env.namespace;
  if (boolFlag(env.args, 'list')) return list(env, out, ns);
  if (!verb || !resArg)
    return out.fail(
      "you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples",
    );
  let attrs: Record<string, unknown>;
  if (resArg.startsWith('/')) {
    attrs = { nonResourceAttributes: { path: resArg, verb } };
  } else {
    const [typePart, namePart] = resArg.split('/', 2) as [string, string | undefined];
    const [base, sub2] =
      typePart.split('.')[0] === typePart ? [typePart, undefined] : [typePart, undefined];
    const info = resolveResource(base);
    if (!info) {
      out.err(`Warning: the server doesn't have a resource type '${base}'\n\n`, 0);
    } else if (!info.namespaced && env.namespaceExplicit) {
      out.err(`Warning: resource '${info.resource}' is not namespace scoped\n\n`, 0);
    }
    attrs = {
      resourceAttributes: {
        ...(info?.namespaced ? { namespace: ns } : {}),
        verb,
        group: info?.group ?? '',
        resource: info?.resource ?? base,
        ...(sub2 ? { subresource: sub2 } : {}),
        ...((namePart ?? nameArg) ? { name: namePart ?? nameArg } : {}),
      },
    };
  }
  const res = env.client.request({
    verb: 'create',
    resource: 'selfsubjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: attrs,
    },
  });
  if (!isOk(res)) return out.apiError(env, res);
  const status =
    (res.body as { status?: { allowed?: boolean; reason?: string; evaluationError?: string } })
      .status ?? {};
  if (status.allowed) return out.out('yes\n');
  if (boolFlag(env.args, 'quiet', 'q')) return out.err('', 1);
  out.out(status.reason ? `no - ${status.reason}\n` : 'no\n');
  out.exitCode = 1;
  return out;
}

function list(env: KubectlEnv, out: Out, ns: string): Out {
  const res = env.client.request({
    verb: 'create',
    resource: 'selfsubjectrulesreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: { creationTimestamp: null },
      spec: { namespace: ns || 'default' },
    },
  });
  if (!isOk(res)) return out.apiError(env, res);
  const st =
    (
      res.body as {
        status?: {
          resourceRules?: {
            verbs: string[];
            apiGroups?: string[];
            resources?: string[];
            resourceNames?: string[];
          }[];
          nonResourceRules?: { verbs: string[]; nonResourceURLs?: string[] }[];
        };
      }
    ).status ?? {};
  const rows: string[] = [];
  for (const r of st.resourceRules ?? []) {
    for (const g of r.apiGroups?.length ? r.apiGroups : ['']) {
      for (const resource of r.resources ?? []) {
        const name =
          g && resource !== '*' ? `${resource}.${g}` : g === '*' ? `${resource}.*` : resource;
        rows.push(`${name}\t[]\t[${(r.resourceNames ?? []).join(' ')}]\t[${r.verbs.join(' ')}]`);
      }
    }
  }
  rows.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // cani.go prints the resource rules (sorted) first, then the non-resource URLs
  for (const r of st.nonResourceRules ?? []) {
    rows.push(`\t[${(r.nonResourceURLs ?? []).join(' ')}]\t[]\t[${r.verbs.join(' ')}]`);
  }
  return out.out(
    formatTabbed(
      `Resources\tNon-Resource URLs\tResource Names\tVerbs\n${rows.join('\n')}\n`,
      GET_TABWRITER,
    ),
  );
}
