// Running totals of the pods each controller owner has, kept from the pod watch events as the
// podsByOwner index is. A ReplicaSet sync reads its owner's totals instead of visiting each of its
// pods, most of which have not changed since its previous sync. Pods are grouped by their labels,
// the one thing a sync still has to match (against its selector and its template).

import type { WatchEvent } from '../client/api-client';
import type { Labels, Pod } from '../model';
import { byControllerUid } from './indexer';
import { isPodActive, isPodReady } from './pod-util';

export interface LabelGroup {
  readonly labels: Labels;
  pods: number;
  /** pods not terminal and not being deleted (isPodActive) */
  active: number;
  /** active pods that are Ready */
  activeReady: number;
}

interface PodEntry {
  owners: string[];
  labels: Labels;
  group: string;
  active: boolean;
  ready: boolean;
}

export class OwnedPodCounts {
  private readonly entries = new Map<string, PodEntry>();
  private readonly byOwner = new Map<string, Map<string, LabelGroup>>();

  /** `keys`: keyOf of each event's object. */
  apply(events: readonly WatchEvent[], keys: readonly string[]): void {
    for (let i = 0; i < events.length; i++) {
      const ev = events[i] as WatchEvent;
      const key = keys[i] as string;
      const old = this.entries.get(key);
      const entry =
        ev.type === 'ADDED' || ev.type === 'MODIFIED' ? entryOf(ev.object as Pod, old) : undefined;
      // most pod changes are status writes that leave the pod where it was counted
      if (old && entry === old) continue;
      if (old) {
        this.count(old, -1);
        this.entries.delete(key);
      }
      if (!entry) continue;
      this.entries.set(key, entry);
      this.count(entry, 1);
    }
  }

  groups(owner: string): Iterable<LabelGroup> {
    return this.byOwner.get(owner)?.values() ?? [];
  }

  private count(entry: PodEntry, delta: 1 | -1): void {
    const owners = entry.owners;
    for (let i = 0; i < owners.length; i++) {
      const owner = owners[i] as string;
      let groups = this.byOwner.get(owner);
      if (!groups) this.byOwner.set(owner, (groups = new Map()));
      let group = groups.get(entry.group);
      if (!group) {
        group = { labels: entry.labels, pods: 0, active: 0, activeReady: 0 };
        groups.set(entry.group, group);
      }
      group.pods += delta;
      if (entry.active) group.active += delta;
      if (entry.ready) group.activeReady += delta;
      if (group.pods === 0) groups.delete(entry.group);
      if (groups.size === 0) this.byOwner.delete(owner);
    }
  }
}

/** The pod's entry: `old` itself when the pod stays where it was counted (no new entry made). */
function entryOf(pod: Pod, old: PodEntry | undefined): PodEntry | undefined {
  const uids = byControllerUid(pod);
  if (uids.length === 0) return undefined;
  const labels = pod.metadata.labels ?? {};
  const active = isPodActive(pod);
  const ready = active && isPodReady(pod);
  const group = groupOf(labels);
  const owners = uids.length === 1 ? uids : [...new Set(uids)];
  if (
    old !== undefined &&
    old.group === group &&
    old.active === active &&
    old.ready === ready &&
    sameOwners(old.owners, owners)
  ) {
    return old;
  }
  return { owners, labels, group, active, ready };
}

function sameOwners(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Most pod events are status writes that keep the pod's frozen labels: each labels object is
// serialized once.
const groupNames = new WeakMap<Labels, string>();

function groupOf(labels: Labels): string {
  // only frozen labels are remembered, and they stay frozen: a hit needs no frozen check
  let group = groupNames.get(labels);
  if (group !== undefined) return group;
  group = JSON.stringify(labels);
  if (Object.isFrozen(labels)) groupNames.set(labels, group);
  return group;
}
