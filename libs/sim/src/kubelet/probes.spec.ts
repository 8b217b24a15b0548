import { describe, expect, it } from 'vitest';
import type { ProbeKind } from './probes';
import {
  describeProbe,
  newProbeState,
  observeProbe,
  probeFailedMessage,
  probeSettings,
} from './probes';

function run(kind: ProbeKind, results: boolean[], probe = {}): string[] {
  const settings = probeSettings(probe);
  let st = newProbeState(kind, settings, 0);
  const out: string[] = [];
  for (const ok of results) {
    st = observeProbe(st, settings, ok, st.nextAt).state;
    out.push(st.result);
  }
  return out;
}

describe('probe thresholds', () => {
  it.each<[ProbeKind, boolean[], Record<string, number>, string[]]>([
    ['readiness', [true], {}, ['success']],
    ['readiness', [false, false, false, false], {}, ['failure', 'failure', 'failure', 'failure']],
    ['readiness', [true, false, false, false], {}, ['success', 'success', 'success', 'failure']],
    ['readiness', [true, true], { successThreshold: 2 }, ['failure', 'success']],
    ['liveness', [false, false, false], {}, ['success', 'success', 'failure']],
    ['liveness', [false, true, false, false], {}, ['success', 'success', 'success', 'success']],
    ['liveness', [false], { failureThreshold: 1 }, ['failure']],
    ['startup', [false, false, true], { failureThreshold: 30 }, ['unknown', 'unknown', 'success']],
  ])('should turn %s results %j into %j with settings %j', (kind, results, probe, expected) => {
    expect(run(kind, results, probe)).toEqual(expected);
  });

  it('should use the API defaults (0s, 1s, 10s, 1, 3) when the probe sets nothing', () => {
    expect(probeSettings({})).toEqual({
      initialDelayMs: 0,
      timeoutMs: 1000,
      periodMs: 10_000,
      successThreshold: 1,
      failureThreshold: 3,
    });
  });

  it('should schedule the first probe after initialDelaySeconds and then every period', () => {
    const s = probeSettings({ initialDelaySeconds: 5, periodSeconds: 2 });
    const st = newProbeState('readiness', s, 1_000);
    expect(st.nextAt).toBe(6_000);
    expect(observeProbe(st, s, true, 6_000).state.nextAt).toBe(8_000);
  });

  it('should word events and describe lines like the kubelet and kubectl', () => {
    expect(probeFailedMessage('readiness', 'HTTP probe failed with statuscode: 503')).toBe(
      'Readiness probe failed: HTTP probe failed with statuscode: 503',
    );
    expect(describeProbe({ httpGet: { path: '/healthz', port: 8080 } })).toBe(
      'http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3',
    );
  });
});
