// Resource name resolution as kubectl's RESTMapper does it from discovery: plural, singular, short
// names, `kind`, and `resource.group` forms.

import type { ResourceInfo } from '../../model';
import { RESOURCES, groupResource } from '../../model';

export function resolveResource(arg: string): ResourceInfo | undefined {
  const lower = arg.toLowerCase();
  const [name, ...groupParts] = lower.split('.');
  const group = groupParts.join('.');
  const candidates = RESOURCES.filter(
    (r) =>
      r.verbs.includes('get') &&
      (r.resource === name ||
        r.singular === name ||
        r.shortNames.includes(name as string) ||
        r.kind.toLowerCase() === name),
  );
  if (!group) return candidates[0];
  return candidates.find((r) => r.group === group || r.group.startsWith(`${group}.`));
}

/** `pod/x`, `deployment.apps/x`: the form `-o name` and `created` messages use. */
export function qualifiedKind(r: ResourceInfo): string {
  return r.group ? `${r.kind.toLowerCase()}.${r.group}` : r.kind.toLowerCase();
}

export { groupResource };

export function apiPath(r: ResourceInfo, namespace?: string, name?: string, sub?: string): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespaced && namespace ? `/namespaces/${namespace}` : '';
  return `${base}${ns}/${r.resource}${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}`;
}
