// Zones and eviction rate limiting of the node lifecycle controller. When many nodes of a zone
// fail at once, it is more likely that the control plane lost the network than that the machines
// died, so the controller slows down (or stops) tainting — a deliberate safety valve.

import type { Condition, Node } from '../model';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** --unhealthy-zone-threshold */
export const UNHEALTHY_ZONE_THRESHOLD = 0.55;

/** GetZoneKey: region and zone labels, or '' when a node has neither. */
export function zoneKey(node: Node): string {
  const l = node.metadata.labels ?? {};
  const region =
    l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone =
    l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState: full disruption when no node is ready, partial when > 2 and ≥ 55 % are not. */
export function computeZoneState(readyConditions: (Condition | undefined)[]): ZoneState {
  let ready = 0;
  let notReady = 0;
  for (const c of readyConditions) {
    if (c?.status === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / (notReady + ready) >= UNHEALTHY_ZONE_THRESHOLD)
    return 'PartialDisruption';
  return 'Normal';
}

/** flowcontrol token bucket with burst 1, on sim time; qps 0 never accepts. */
export class TokenBucket {
  constructor(
    private qps: number,
    private tokens = 1,
    private last = 0,
  ) {}

  static load(s: { qps: number; tokens: number; last: number }): TokenBucket {
    return new TokenBucket(s.qps, s.tokens, s.last);
  }

  save(): { qps: number; tokens: number; last: number } {
    return { qps: this.qps, tokens: this.tokens, last: this.last };
  }

  private refill(now: number): void {
    if (now > this.last) {
      this.tokens = Math.min(1, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
  }

  tryAccept(now: number): boolean {
    if (this.qps <= 0) return false;
    this.refill(now);
    if (this.tokens >= 1 - 1e-9) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  refund(): void {
    this.tokens = Math.min(1, this.tokens + 1);
  }

  /** Sim time at which the next token is available (undefined when the rate is 0). */
  nextTokenAt(now: number): number | undefined {
    if (this.qps <= 0) return undefined;
    this.refill(now);
    return now + Math.ceil(((1 - this.tokens) * 1000) / this.qps);
  }

  /** SwapLimiter: a new limiter (full bucket) with another rate. */
  setQps(qps: number, now: number): void {
    if (qps === this.qps) return;
    this.qps = qps;
    this.tokens = 1;
    this.last = now;
  }
}
