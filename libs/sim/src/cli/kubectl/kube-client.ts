// One kubectl invocation's connection to the lab: who it is (kubeconfig), where it sends requests
// (Lab.request as that user), and the client-go `-v` HTTP log lines on stderr (FIDELITY.md §5).

import type { ApiResponse } from '../../client/api-client';
import type { LabRequest } from '../../lab/lab-types';
import type { Lab } from '../../lab/lab-types';
import { resourceInfo } from '../../model';
import type { Kubeconfig } from './kubeconfig';
import { API_SERVER } from './kubeconfig';
import { apiPath } from './kube-resources';
import type { TraceInput } from '../../trace/trace-event';
import { statusText } from '../../shared/http-status';

export const KUBECTL_VERSION = 'v1.32.5';
export const GIT_COMMIT = '9894294ef13a5b32803e3ca2c0d620a088cc84d1';
export const USER_AGENT = `kubectl/${KUBECTL_VERSION} (linux/amd64) kubernetes/${GIT_COMMIT.slice(0, 7)}`;
const TABLE_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const PID = 4242;

export interface KubeClientOptions {
  lab: Lab;
  config: Kubeconfig;
  configPath: string;
  /** wall-clock ms now (lab start time + sim time) */
  nowWallMs: () => number;
  verbosity: number;
  /**
   * Records kubectl's step in the lab's journey. kubectl is not a cluster component (it is a
   * client on the learner's machine), so the command line reports it on its behalf.
   */
  recordStep?: (step: Omit<TraceInput, 'component' | 'causedBy'>) => number;
}

export class KubeClient {
  readonly server: string;
  readonly user: string;
  readonly namespace: string;
  readonly token?: string;
  log = '';
  private seq = 0;
  private readonly warned = new Set<string>();

  constructor(private readonly opts: KubeClientOptions) {
    const cfg = opts.config;
    const ctx = cfg.contexts.find((c) => c.name === cfg.currentContext);
    this.server = cfg.clusters.find((c) => c.name === ctx?.cluster)?.server ?? API_SERVER;
    this.user = ctx?.user ?? '';
    this.namespace = ctx?.namespace || 'default';
    this.token = cfg.users.find((u) => u.name === this.user)?.token;
    if (opts.verbosity >= 6) {
      this.klog('loader.go:402', `Config loaded from file:  ${opts.configPath}`);
      for (const f of [
        'ClientsAllowCBOR',
        'ClientsPreferCBOR',
        'InformerResourceVersion',
        'WatchListClient',
      ]) {
        this.klog('envvar.go:172', `"Feature gate default state" feature="${f}" enabled=false`);
      }
    }
  }

  get lab(): Lab {
    return this.opts.lab;
  }

  nowWallMs(): number {
    return this.opts.nowWallMs();
  }

  /** Sends one request as the kubeconfig user and logs it at -v=6/-v=8. */
  request(req: LabRequest): ApiResponse {
    let res: ApiResponse;
    const step = this.recordRequest(req);
    if (step !== undefined) req = { ...req, causedBy: step };
    try {
      res = this.token
        ? this.opts.lab.requestAs({ kind: 'token', token: this.token }, req)
        : (this.opts.lab.request(this.user, req) as ApiResponse);
    } catch (e) {
      res = {
        code: 500,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `Internal error occurred: ${e instanceof Error ? e.message : String(e)}`,
          reason: 'InternalError',
          code: 500,
        },
      };
    }
    if (!res || typeof res.code !== 'number') {
      res = {
        code: 500,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'Internal error occurred: empty response',
          reason: 'InternalError',
          code: 500,
        },
      };
    }
    this.logRequest(req, res);
    // client-go's default warning handler: each apiserver Warning header once, on stderr
    for (const w of res.warnings ?? []) {
      if (this.warned.has(w)) continue;
      this.warned.add(w);
      this.log += `Warning: ${w}\n`;
    }
    return res;
  }

  /** kubectl's side of the journey: the manifest became JSON and went out as one HTTP request */
  private recordRequest(req: LabRequest): number | undefined {
    if (!this.opts.recordStep) return undefined;
    const method = httpMethod(req);
    const url = this.url(req);
    const info = resourceInfo(req.resource);
    const name = req.name ?? bodyName(req.body);
    const object = name
      ? {
          kind: info?.kind ?? req.resource,
          namespace: info?.namespaced ? req.namespace : undefined,
          name,
        }
      : undefined;
    return this.opts.recordStep({
      verb: 'http-request',
      message:
        req.body === undefined
          ? `${method} ${url} as ${this.user || 'anonymous'}`
          : `${method} ${url} as ${this.user || 'anonymous'}, the manifest sent as JSON`,
      ...(object ? { object } : {}),
      data: { method, url, userAgent: USER_AGENT },
    });
  }

  url(req: LabRequest): string {
    const info = resourceInfo(req.resource);
    const path = info
      ? apiPath(info, req.namespace, req.name, req.subresource)
      : `/${req.resource}`;
    const q: string[] = [];
    const query = req.query ?? {};
    if (query.dryRun) q.push('dryRun=All');
    if (query.fieldManager) q.push(`fieldManager=${query.fieldManager}`);
    if (query.fieldValidation) q.push(`fieldValidation=${query.fieldValidation}`);
    if (query.force !== undefined && req.patchType === 'apply') q.push(`force=${query.force}`);
    if (query.labelSelector) q.push(`labelSelector=${encodeURIComponent(query.labelSelector)}`);
    if (query.fieldSelector) q.push(`fieldSelector=${encodeURIComponent(query.fieldSelector)}`);
    if (query.container) q.push(`container=${query.container}`);
    if (query.previous) q.push('previous=true');
    if (query.tailLines !== undefined) q.push(`tailLines=${query.tailLines}`);
    if (query.limit !== undefined) q.push(`limit=${query.limit}`);
    return `${this.server}${path}${q.length ? `?${q.join('&')}` : ''}`;
  }

  klog(where: string, msg: string): void {
    const d = new Date(this.opts.nowWallMs());
    const p2 = (n: number) => String(n).padStart(2, '0');
    const micros = String((d.getUTCMilliseconds() * 1000 + this.seq * 137) % 1_000_000).padStart(
      6,
      '0',
    );
    this.seq++;
    this.log += `I${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${micros} ${String(PID).padStart(7)} ${where}] ${msg}\n`;
  }

  private logRequest(req: LabRequest, res: ApiResponse): void {
    const v = this.opts.verbosity;
    if (v < 6) return;
    const method = httpMethod(req);
    const url = this.url(req);
    const ms = 3 + ((url.length * 7 + this.seq) % 9);
    const status = res.code === 0 ? '' : `${res.code} ${statusText(res.code)}`;
    if (v < 7) {
      this.klog('round_trippers.go:560', `${method} ${url} ${status} in ${ms} milliseconds`);
      return;
    }
    this.klog('round_trippers.go:527', `${method} ${url}`);
    this.klog('round_trippers.go:534', 'Request Headers:');
    this.klog(
      'round_trippers.go:538',
      `    Accept: ${req.query?.asTable ? TABLE_ACCEPT : 'application/json, */*'}`,
    );
    if (req.body !== undefined)
      this.klog('round_trippers.go:538', `    Content-Type: ${contentType(req)}`);
    this.klog('round_trippers.go:538', `    User-Agent: ${USER_AGENT}`);
    if (this.token) this.klog('round_trippers.go:538', '    Authorization: Bearer <masked>');
    if (v >= 8 && req.body !== undefined)
      this.klog(
        'helper.go:113',
        `"Request Body" body=${goQuote(truncate(JSON.stringify(req.body), v))}`,
      );
    this.klog('round_trippers.go:553', `Response Status: ${status} in ${ms} milliseconds`);
    if (v < 8 || res.code === 0) return;
    const d = new Date(this.opts.nowWallMs());
    const audit = fakeUuid(`${url}${this.seq}`);
    this.klog('round_trippers.go:556', 'Response Headers:');
    for (const [k, val] of [
      ['Audit-Id', audit],
      ['Cache-Control', 'no-cache, private'],
      ['Content-Type', 'application/json'],
      ['Date', d.toUTCString()],
      ['X-Kubernetes-Pf-Flowschema-Uid', fakeUuid('exempt')],
      ['X-Kubernetes-Pf-Prioritylevel-Uid', fakeUuid('exempt-level')],
    ]) {
      this.klog('round_trippers.go:558', `    ${k}: ${val}`);
    }
    const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    this.klog('helper.go:113', `"Response Body" body=${goQuote(truncate(body, v))}`);
  }
}

function bodyName(body: unknown): string | undefined {
  const name = (body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  return typeof name === 'string' ? name : undefined;
}

export function httpMethod(req: LabRequest): string {
  switch (req.verb) {
    case 'create':
      return 'POST';
    case 'update':
      return 'PUT';
    case 'patch':
      return 'PATCH';
    case 'delete':
    case 'deletecollection':
      return 'DELETE';
    default:
      return 'GET';
  }
}

function contentType(req: LabRequest): string {
  switch (req.patchType) {
    case 'strategic':
      return 'application/strategic-merge-patch+json';
    case 'merge':
      return 'application/merge-patch+json';
    case 'json':
      return 'application/json-patch+json';
    case 'apply':
      return 'application/apply-patch+yaml';
    default:
      return 'application/json';
  }
}

function truncate(body: string, v: number): string {
  const max = v >= 10 ? Infinity : v >= 9 ? 10240 : 1024;
  return body.length > max ? `${body.slice(0, max)} [truncated ${body.length - max} chars]` : body;
}

/** Go's %q for the structured klog value. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

function fakeUuid(seed: string): string {
  let h = 0x811c9dc5;
  const hex: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${seed}#${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    hex.push(h.toString(16).padStart(8, '0'));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
}
