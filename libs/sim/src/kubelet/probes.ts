// The kubelet's prober, as a pure state machine per (container, probe kind): defaults from the
// API (delay 0, timeout 1 s, period 10 s, success 1, failure 3), thresholds on consecutive
// results, and the rule that liveness and readiness wait until the startup probe has succeeded.

import type { Probe } from '../model';

export type ProbeKind = 'startup' | 'liveness' | 'readiness';
export type ProbeResult = 'success' | 'failure' | 'unknown';

export interface ProbeSettings {
  initialDelayMs: number;
  timeoutMs: number;
  periodMs: number;
  successThreshold: number;
  failureThreshold: number;
}

export function probeSettings(p: Probe): ProbeSettings {
  return {
    initialDelayMs: (p.initialDelaySeconds ?? 0) * 1000,
    timeoutMs: (p.timeoutSeconds ?? 1) * 1000,
    periodMs: (p.periodSeconds ?? 10) * 1000,
    successThreshold: p.successThreshold ?? 1,
    failureThreshold: p.failureThreshold ?? 3,
  };
}

export interface ProbeState {
  kind: ProbeKind;
  /** the result the kubelet acts on (changes only when a threshold is crossed) */
  result: ProbeResult;
  consecutiveSuccesses: number;
  consecutiveFailures: number;
  nextAt: number;
}

/** Initial results upstream: readiness and startup start as failure/unknown, liveness as success. */
export function newProbeState(
  kind: ProbeKind,
  settings: ProbeSettings,
  containerStartedAt: number,
): ProbeState {
  return {
    kind,
    result: kind === 'liveness' ? 'success' : kind === 'readiness' ? 'failure' : 'unknown',
    consecutiveSuccesses: 0,
    consecutiveFailures: 0,
    nextAt: containerStartedAt + settings.initialDelayMs,
  };
}

export interface ProbeTransition {
  state: ProbeState;
  /** true when `result` changed with this observation */
  changed: boolean;
}

/** Records one probe outcome at `now` and schedules the next run one period later. */
export function observeProbe(
  prev: ProbeState,
  settings: ProbeSettings,
  ok: boolean,
  now: number,
): ProbeTransition {
  const s: ProbeState = { ...prev, nextAt: now + settings.periodMs };
  if (ok) {
    s.consecutiveSuccesses += 1;
    s.consecutiveFailures = 0;
    if (s.result !== 'success' && s.consecutiveSuccesses >= settings.successThreshold)
      s.result = 'success';
  } else {
    s.consecutiveFailures += 1;
    s.consecutiveSuccesses = 0;
    if (s.result !== 'failure' && s.consecutiveFailures >= settings.failureThreshold)
      s.result = 'failure';
    // Liveness/startup act again after another full run of failures (the worker resets on restart).
  }
  return { state: s, changed: s.result !== prev.result };
}

/** Kubelet event text: `Readiness probe failed: HTTP probe failed with statuscode: 503`. */
export function probeFailedMessage(kind: ProbeKind, output: string): string {
  const k = kind === 'liveness' ? 'Liveness' : kind === 'readiness' ? 'Readiness' : 'Startup';
  return `${k} probe failed: ${output}`;
}

/** `kubectl describe` probe line: `http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3`. */
export function describeProbe(p: Probe): string {
  const s = probeSettings(p);
  let action = 'unknown';
  if (p.httpGet)
    action = `http-get ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://:${p.httpGet.port}${p.httpGet.path ?? '/'}`;
  else if (p.tcpSocket) action = `tcp-socket :${p.tcpSocket.port}`;
  else if (p.exec) action = `exec [${p.exec.command.join(' ')}]`;
  return `${action} delay=${s.initialDelayMs / 1000}s timeout=${s.timeoutMs / 1000}s period=${s.periodMs / 1000}s #success=${s.successThreshold} #failure=${s.failureThreshold}`;
}
