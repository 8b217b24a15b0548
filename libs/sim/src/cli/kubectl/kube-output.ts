// -o yaml|json|name|jsonpath=|custom-columns= printing (cli-runtime printers), shared by get,
// create, apply, and the other verbs that accept -o.

import { stringify } from 'yaml';
import type { KubeObject } from '../../model';
import { resourceForKind } from '../../model';
import { formatTabbed, GET_TABWRITER } from '../text/tab-writer';
import { executeJsonPath, JsonPathError } from './jsonpath';
import { qualifiedKind } from './kube-resources';
import { executeGoTemplate, GoTemplateError, goTemplateParseError } from './go-template';

/** sigs.k8s.io/yaml: keys sorted, sequences not indented under their key, 2 spaces. */
export function toYaml(v: unknown): string {
  // version 1.1 quotes what go-yaml v2 quotes: "2026-01-05T09:00:00Z", "80", "yes", "on", ...
  return stringify(v, {
    sortMapEntries: true,
    indentSeq: false,
    lineWidth: 0,
    version: '1.1',
    aliasDuplicateObjects: false,
  });
}

function sortKeys(v: unknown, depth = 0): unknown {
  if (depth > 200 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => sortKeys(x, depth + 1));
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, sortKeys(o[k], depth + 1)]),
  );
}

/** kubectl prints objects as unstructured maps: keys sorted, 4-space indent. */
export function toJson(v: unknown): string {
  return `${JSON.stringify(sortKeys(v), null, 4)}\n`;
}

export function asList(items: KubeObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

export function objectName(obj: KubeObject): string {
  const info = resourceForKind(obj.kind);
  const kind = info ? qualifiedKind(info) : String(obj.kind ?? '').toLowerCase();
  return `${kind}/${obj.metadata?.name ?? ''}`;
}

export type OutputFormat =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string }
  | { kind: 'custom-columns'; spec: string }
  | { kind: 'go-template'; template: string };

export function parseOutputFormat(
  o: string | undefined,
  templateFlag?: string,
): OutputFormat | string {
  if (o === undefined || o === '') return { kind: 'table', wide: false };
  if (o === 'wide') return { kind: 'table', wide: true };
  if (o === 'yaml' || o === 'json' || o === 'name') return { kind: o };
  const m = /^(jsonpath|custom-columns|go-template|template)(?:=(.*))?$/s.exec(o);
  const body = m?.[2] ?? templateFlag;
  if (m && (m[1] === 'go-template' || m[1] === 'template')) {
    if (!body) return 'template format specified but no template given';
    return goTemplateParseError(body) ?? { kind: 'go-template', template: body };
  }
  if (m && m[1] === 'jsonpath') {
    if (!body) return 'jsonpath template format specified but no template given';
    return { kind: 'jsonpath', template: body };
  }
  if (m && m[2] !== undefined) return { kind: 'custom-columns', spec: m[2] };
  return `unable to match a printer suitable for the output format "${o}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`;
}

/** Prints objects in a non-table format; returns [stdout, error]. */
export function printObjects(
  format: Exclude<OutputFormat, { kind: 'table' }>,
  objects: KubeObject[],
  single: boolean,
): [string, string | undefined] {
  const data = single && objects.length === 1 ? objects[0] : asList(objects);
  switch (format.kind) {
    case 'yaml':
      return [toYaml(data), undefined];
    case 'json':
      return [toJson(data), undefined];
    case 'name':
      return [objects.map((o) => `${objectName(o)}\n`).join(''), undefined];
    case 'jsonpath':
      try {
        return [executeJsonPath(stripQuotes(format.template), data), undefined];
      } catch (e) {
        const msg = e instanceof JsonPathError ? e.message : String(e);
        return [
          '',
          `error executing jsonpath ${JSON.stringify(format.template)}: ${msg}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${format.template}\n\tobject given to jsonpath engine was:\n\t\t${JSON.stringify(data).slice(0, 2000)}\n\n`,
        ];
      }
    case 'go-template':
      try {
        return [executeGoTemplate(format.template, data), undefined];
      } catch (e) {
        return [
          '',
          `error executing template ${JSON.stringify(format.template)}: template: output:1: executing "output": ${e instanceof GoTemplateError ? e.message : String(e)}`,
        ];
      }
    case 'custom-columns': {
      const cols = format.spec.split(',').map((c) => {
        const i = c.indexOf(':');
        return i < 0 ? null : { header: c.slice(0, i), path: c.slice(i + 1) };
      });
      if (format.spec === '')
        return ['', 'custom-columns format specified but no custom columns given'];
      const bad = format.spec.split(',').find((c) => !c.includes(':'));
      if (bad !== undefined)
        return ['', `unexpected custom-columns spec: ${bad}, expected <header>:<json-path-expr>`];
      let text = `${cols.map((c) => c?.header).join('\t')}\n`;
      for (const o of objects) {
        text += `${cols
          .map((c) => {
            const p = (c?.path ?? '').replace(/^\{?\.?/, '.').replace(/\}$/, '');
            let v = '';
            try {
              v = executeJsonPath(`{${p}}`, o);
            } catch {
              v = '';
            }
            return v === '' ? '<none>' : v.split(' ').join(',');
          })
          .join('\t')}\n`;
      }
      return [formatTabbed(text, GET_TABWRITER), undefined];
    }
  }
}

function stripQuotes(s: string): string {
  return /^'.*'$/s.test(s) ? s.slice(1, -1) : s;
}
