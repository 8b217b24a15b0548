// ~/.kube/config as kubeadm writes it. kubectl reads it on every call, so a learner who edits the
// file (or runs `config use-context`) changes who the requests are made as.

import { parse, stringify } from 'yaml';

export interface Kubeconfig {
  clusters: { name: string; server: string }[];
  users: { name: string; token?: string }[];
  contexts: { name: string; cluster: string; user: string; namespace?: string }[];
  currentContext: string;
}

export const API_SERVER = 'https://172.18.0.2:6443';
export const ADMIN_USER = 'kubernetes-admin';
export const ADMIN_CONTEXT = 'kubernetes-admin@kubernetes';

export function defaultKubeconfig(extraUsers: { name: string; token: string }[] = []): Kubeconfig {
  return {
    clusters: [{ name: 'kubernetes', server: API_SERVER }],
    users: [{ name: ADMIN_USER }, ...extraUsers.map((u) => ({ name: u.name, token: u.token }))],
    contexts: [
      { name: ADMIN_CONTEXT, cluster: 'kubernetes', user: ADMIN_USER },
      ...extraUsers.map((u) => ({
        name: `${u.name}@kubernetes`,
        cluster: 'kubernetes',
        user: u.name,
      })),
    ],
    currentContext: ADMIN_CONTEXT,
  };
}

const REDACTED = 'DATA+OMITTED';

// Every terminal writes the same ~/.kube/config when it starts, once per command: printing the
// YAML cost more than many commands. The text is a pure function of the config, so it is kept.
const YAML_TEXTS_MAX = 64;
const yamlTexts = new Map<string, string>();

/** The YAML file, with fake certificate data like kubeadm's admin.conf. */
export function kubeconfigYaml(cfg: Kubeconfig, redact = false): string {
  const key = `${redact ? 1 : 0}${JSON.stringify(cfg)}`;
  let text = yamlTexts.get(key);
  if (text === undefined) {
    text = printKubeconfig(cfg, redact);
    if (yamlTexts.size >= YAML_TEXTS_MAX) yamlTexts.clear();
    yamlTexts.set(key, text);
  }
  return text;
}

function printKubeconfig(cfg: Kubeconfig, redact: boolean): string {
  const data = (what: string) =>
    redact ? REDACTED : `LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t${what}`;
  const doc = {
    apiVersion: 'v1',
    clusters: cfg.clusters.map((c) => ({
      cluster: { 'certificate-authority-data': data('Q0EK'), server: c.server },
      name: c.name,
    })),
    contexts: cfg.contexts.map((c) => ({
      context: {
        cluster: c.cluster,
        ...(c.namespace ? { namespace: c.namespace } : {}),
        user: c.user,
      },
      name: c.name,
    })),
    'current-context': cfg.currentContext,
    kind: 'Config',
    preferences: {},
    users: cfg.users.map((u) => ({
      name: u.name,
      user: u.token
        ? { token: redact ? 'REDACTED' : u.token }
        : { 'client-certificate-data': data('Q0VSVAo'), 'client-key-data': data('S0VZCg') },
    })),
  };
  return stringify(doc, { indentSeq: false });
}

/** Reads the file back; null when it is not a usable kubeconfig. */
/**
 * Every kubectl command reads the same kubeconfig; parsing its YAML costs more than a whole
 * `kubectl get ns`. The last text's result is kept (a pure function of the text) and each caller
 * gets its own copy.
 */
let lastParsed: { text: string; config: Kubeconfig | null } | undefined;

export function parseKubeconfig(text: string): Kubeconfig | null {
  if (lastParsed?.text !== text) lastParsed = { text, config: parseKubeconfigText(text) };
  const c = lastParsed.config;
  if (!c) return null;
  return {
    ...c,
    clusters: c.clusters.map((x) => ({ ...x })),
    users: c.users.map((x) => ({ ...x })),
    contexts: c.contexts.map((x) => ({ ...x })),
  };
}

function parseKubeconfigText(text: string): Kubeconfig | null {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 10 });
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object') return null;
  const d = doc as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  const o = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  return {
    clusters: list(d.clusters).map((c) => ({
      name: String(c?.name ?? ''),
      server: String(o(c?.cluster).server ?? ''),
    })),
    users: list(d.users).map((u) => {
      const token = o(u?.user).token;
      return { name: String(u?.name ?? ''), ...(typeof token === 'string' ? { token } : {}) };
    }),
    contexts: list(d.contexts).map((c) => {
      const ctx = o(c?.context);
      return {
        name: String(c?.name ?? ''),
        cluster: String(ctx.cluster ?? ''),
        user: String(ctx.user ?? ''),
        ...(typeof ctx.namespace === 'string' ? { namespace: ctx.namespace } : {}),
      };
    }),
    currentContext: String(d['current-context'] ?? ''),
  };
}
