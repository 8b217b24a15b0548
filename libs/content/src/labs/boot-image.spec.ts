import { createLab, runCommandLine, type SimLab } from '@kubejourney/sim';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/scenarios.data';
import { BOOT_IMAGE_SEED, bootImageTraceOf, labFromImage, warmImage } from './boot-image';
import { bootSandbox, createBootedLab, simLabEngine } from './lab-blueprint';

interface TPodLike {
  metadata: { name: string; uid: string };
  status?: { phase?: string };
}

function podsOf(lab: SimLab, namespace: string): TPodLike[] {
  return lab.peekAll('pods', namespace) as unknown as TPodLike[];
}

function applyWeb(lab: SimLab): void {
  const out = runCommandLine(
    lab,
    'kubectl create deployment web --image=nginx:1.27 --replicas=3',
    (ms) => lab.advance(ms),
  );
  expect(out.stdout).toBe('deployment.apps/web created\n');
  for (let i = 0; i < 10; i++) lab.advance(500);
}

describe('boot images', () => {
  it('should build an image once per key and restore every lab from it', () => {
    let boots = 0;
    const boot = (seed: number): SimLab => {
      boots++;
      const lab = createLab({ seed });
      lab.advance(2_000);
      return lab;
    };
    const a = labFromImage('spec:count', boot, 11);
    const b = labFromImage('spec:count', boot, 12);
    expect(boots).toBe(1);
    expect(a.now).toBe(2_000);
    expect(b.now).toBe(2_000);
    expect(a.etcd.revision).toBe(b.etcd.revision);
  });

  it('should warm every image so that later labs only restore', () => {
    let boots = 0;
    const boot = (seed: number): SimLab => {
      boots++;
      return createLab({ seed });
    };
    warmImage('spec:warm', boot);
    warmImage('spec:warm', boot);
    labFromImage('spec:warm', boot, 3);
    expect(boots).toBe(1);
    // the engine's warm-up builds the sandbox's and every scenario's image without failing
    simLabEngine.warm();
    const scenario = simLabEngine.create({
      kind: 'SCENARIO',
      scenarioId: SCENARIOS[0]!.id,
      seed: 5,
    });
    expect(scenario?.now).toBeGreaterThan(0);
  });

  it('should give a booted sandbox: quiescent, every node Ready, CoreDNS Running', () => {
    const lab = createBootedLab(42);
    expect(lab.advance(0).quiescent).toBe(true);
    const nodes = lab.peekAll('nodes') as unknown as {
      status: { conditions: { type: string; status: string }[] };
    }[];
    expect(nodes).toHaveLength(4);
    for (const n of nodes)
      expect(n.status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    const dns = podsOf(lab, 'kube-system').filter((p) => p.metadata.name.startsWith('coredns-'));
    expect(dns.map((p) => p.status?.phase)).toEqual(['Running', 'Running']);
  });

  it('should replay the same cluster for the same seed, byte for byte', () => {
    const a = createBootedLab(7);
    const b = createBootedLab(7);
    applyWeb(a);
    applyWeb(b);
    expect(a.serialize()).toBe(b.serialize());
  });

  it("should draw what the learner creates from the lab's own seed", () => {
    const a = createBootedLab(7);
    const b = createBootedLab(8);
    applyWeb(a);
    applyWeb(b);
    const names = (lab: SimLab) =>
      podsOf(lab, 'default')
        .map((p) => p.metadata.name)
        .sort();
    expect(names(a)).toHaveLength(3);
    expect(names(a)).not.toEqual(names(b));
    // the boot itself is the image's: the same kube-system pods in both
    expect(podsOf(a, 'kube-system').map((p) => p.metadata.uid)).toEqual(
      podsOf(b, 'kube-system').map((p) => p.metadata.uid),
    );
  });

  it('should name the image a lab came from and the trace events it starts with', () => {
    const a = createBootedLab(7);
    const b = createBootedLab(8);
    const image = bootImageTraceOf(a);
    expect(image).not.toBeNull();
    expect(bootImageTraceOf(b)).toBe(image);
    // the image's events are exactly the lab's first ones, seqs 1..traceSeq
    expect(a.trace().map((e) => e.seq)).toEqual(
      Array.from({ length: image!.traceSeq }, (_, i) => i + 1),
    );
    expect(image!.traceSeq).toBeGreaterThan(1_000);
    expect(image!.id).toMatch(/^sandbox@[0-9a-f]{16}$/);
    // another image, another id; a lab not restored from an image has none
    const scenario = simLabEngine.create({
      kind: 'SCENARIO',
      scenarioId: SCENARIOS[0]!.id,
      seed: 5,
    });
    expect(bootImageTraceOf(scenario!)?.id).toMatch(/^scenario-prelude:\d+@[0-9a-f]{16}$/);
    expect(bootImageTraceOf(createLab({ seed: 1 }))).toBeNull();
  });

  it('should start from the cluster a direct boot with the image seed gives', () => {
    const direct = bootSandbox(BOOT_IMAGE_SEED);
    const fromImage = createBootedLab(BOOT_IMAGE_SEED);
    const strip = (text: string) => ({ ...JSON.parse(text), rng: 0 });
    expect(strip(fromImage.serialize())).toEqual(strip(direct.serialize()));
  });
});
