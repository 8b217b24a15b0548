// Turning watch events into the scheduler's ClusterEvents (pkg/scheduler/eventhandlers.go and
// framework/events.go): a node update only counts when a scheduling property changed (not a
// heartbeat), and a pod event is "assigned" or "unscheduled" by whether it has a node. The
// summaries are small fingerprints, so they can be saved with the lab and a restored scheduler
// reacts to the same changes as the original would.

import type { Node, Pod } from '../../model';
import { hex16, stableStringify } from '../../shared/hash';
import type { ClusterEvent } from './plugin-types';
import { isTerminal } from './node-info';

export interface NodeSummary {
  rv: string;
  allocatable: string;
  labels: string;
  taints: string;
  conditions: string;
  annotations: string;
}

export interface PodSummary {
  rv: string;
  node: string;
  terminal: boolean;
  labels: string;
  /** the pod minus status/resourceVersion/managedFields (isPodUpdated) */
  spec: string;
}

const h = (v: unknown): string => hex16(stableStringify(v ?? null));

// Objects from the watch cache are deep-frozen and a pod's spec and labels are shared between
// its versions (a status write keeps them), so their serialization is remembered per object.
const frozenJson = new WeakMap<object, string>();
function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object' || !Object.isFrozen(v)) return stableStringify(v ?? null);
  let s = frozenJson.get(v);
  if (s === undefined) {
    // a frozen object's fields are frozen too: a new spec made by a binding shares its
    // containers, tolerations and volumes with the version before it, and their text
    s = Array.isArray(v) ? stableStringify(v) : stableFields(v as Record<string, unknown>);
    frozenJson.set(v, s);
  }
  return s;
}

/** stableStringify of a plain object whose field values may be frozen (and remembered). */
function stableFields(o: Record<string, unknown>): string {
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
}

export function summarizeNode(node: Node): NodeSummary {
  return {
    rv: node.metadata.resourceVersion ?? '',
    allocatable: h(node.status?.allocatable),
    labels: h(node.metadata.labels),
    taints: h({ t: node.spec.taints ?? [], u: !!node.spec.unschedulable }),
    conditions: h((node.status?.conditions ?? []).map((c) => [c.type, c.status])),
    annotations: h(node.metadata.annotations),
  };
}

// A pod's status writes keep its frozen spec and labels and leave the rest of its metadata alone,
// so the last hash per spec object (with the metadata it was taken with) and per labels object is
// remembered: hashing the spec text is most of a summary's cost.
interface SpecHash {
  /** the frozen metadata the hash was taken with, if it was frozen */
  metadata?: Pod['metadata'];
  meta: string;
  hash: string;
}
const specHash = new WeakMap<object, SpecHash>();
const labelsHash = new WeakMap<object, string>();

/** metadata fields a status write changes, which isPodUpdated ignores */
const VOLATILE_META = new Set(['resourceVersion', 'generation', 'managedFields']);

/**
 * Whether two frozen metadata objects serialize the same once the volatile fields are left out:
 * every other field the same primitive or the same frozen (so unchanged) object.
 */
function isSameMeta(a: Pod['metadata'], b: Pod['metadata']): boolean {
  if (a === b) return true;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k of Object.keys(y)) {
    const v = y[k];
    if (v === undefined || VOLATILE_META.has(k)) continue;
    if (x[k] !== v || (typeof v === 'object' && v !== null && !Object.isFrozen(v))) return false;
    count++;
  }
  for (const k of Object.keys(x)) if (x[k] !== undefined && !VOLATILE_META.has(k)) count--;
  return count === 0;
}

function podMeta(pod: Pod): Pod['metadata'] {
  const meta = { ...pod.metadata };
  delete meta.resourceVersion;
  delete meta.generation;
  delete meta.managedFields;
  return meta;
}

/** hex16(stableStringify({ meta, spec })), with the spec's part remembered. */
function hashSpec(pod: Pod): string {
  const spec = pod.spec;
  const frozen = Object.isFrozen(spec);
  const last = frozen ? specHash.get(spec) : undefined;
  if (last?.metadata && Object.isFrozen(pod.metadata) && isSameMeta(last.metadata, pod.metadata))
    return last.hash;
  const metaJson = stableFields(podMeta(pod) as Record<string, unknown>);
  const metadata = Object.isFrozen(pod.metadata) ? pod.metadata : undefined;
  if (last !== undefined && last.meta === metaJson) {
    last.metadata = metadata;
    return last.hash;
  }
  const hash = hex16(`{"meta":${metaJson},"spec":${stableJson(spec)}}`);
  if (frozen) specHash.set(spec, { metadata, meta: metaJson, hash });
  return hash;
}

function hashLabels(labels: Pod['metadata']['labels']): string {
  if (labels === undefined || !Object.isFrozen(labels)) return hex16(stableJson(labels));
  let hash = labelsHash.get(labels);
  if (hash === undefined) {
    hash = hex16(stableJson(labels));
    labelsHash.set(labels, hash);
  }
  return hash;
}

function podSpecHash(pod: Pod): string {
  return pod.spec === undefined ? h({ meta: podMeta(pod) }) : hashSpec(pod);
}

/**
 * The spec hash of a frozen pod is taken when first read: only a pending pod's update compares
 * it, and a save prints it, so a pod created and bound between two saves never has its new spec
 * serialized.
 */
export function summarizePod(pod: Pod): PodSummary {
  return new LazyPodSummary(pod);
}

/** A PodSummary whose spec hash is taken when first read; it saves as the plain summary. */
class LazyPodSummary implements PodSummary {
  readonly rv: string;
  readonly node: string;
  readonly terminal: boolean;
  readonly labels: string;
  #source: Pod | undefined;
  #spec: string | undefined;

  constructor(pod: Pod) {
    this.rv = pod.metadata.resourceVersion ?? '';
    this.node = pod.spec.nodeName ?? '';
    this.terminal = isTerminal(pod);
    this.labels = hashLabels(pod.metadata.labels);
    if (Object.isFrozen(pod.metadata) && Object.isFrozen(pod.spec)) this.#source = pod;
    else this.#spec = podSpecHash(pod);
  }

  get spec(): string {
    if (this.#source) {
      this.#spec = podSpecHash(this.#source);
      this.#source = undefined;
    }
    return this.#spec as string;
  }

  toJSON(): PodSummary {
    return {
      rv: this.rv,
      node: this.node,
      terminal: this.terminal,
      labels: this.labels,
      spec: this.spec,
    };
  }
}

/** nodeSchedulingPropertiesChange: which node updates can make a pending pod schedulable. */
export function nodeUpdateEvents(old: NodeSummary, cur: NodeSummary): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  if (old.allocatable !== cur.allocatable) out.push('NodeAllocatable');
  if (old.labels !== cur.labels) out.push('NodeLabel');
  if (old.taints !== cur.taints) out.push('NodeTaint');
  if (old.conditions !== cur.conditions) out.push('NodeCondition');
  if (old.annotations !== cur.annotations) out.push('NodeAnnotation');
  return out;
}

// assignedPodEvents' answers, shared (every pod event asks)
const ASSIGNED_POD_ADD: readonly ClusterEvent[] = Object.freeze(['AssignedPodAdd']);
const ASSIGNED_POD_DELETE: readonly ClusterEvent[] = Object.freeze(['AssignedPodDelete']);
const ASSIGNED_POD_UPDATE: readonly ClusterEvent[] = Object.freeze(['AssignedPodUpdate']);
const NO_EVENTS: readonly ClusterEvent[] = Object.freeze([]);

/** Events an assigned pod's change produces (bound, relabelled, finished or deleted). */
export function assignedPodEvents(
  old: PodSummary | undefined,
  cur: PodSummary | undefined,
): readonly ClusterEvent[] {
  const wasAssigned = !!old && old.node !== '' && !old.terminal;
  const isAssigned = !!cur && cur.node !== '' && !cur.terminal;
  if (!wasAssigned && isAssigned) return ASSIGNED_POD_ADD;
  if (wasAssigned && !isAssigned) return ASSIGNED_POD_DELETE;
  if (wasAssigned && isAssigned && old.labels !== cur.labels) return ASSIGNED_POD_UPDATE;
  return NO_EVENTS;
}
