// Every command a chapter offers, clicked in reading order in a real simulated lab: each must be
// understood by the lab's shell, and the observations the chapters promise must show up.
// The simulator's terminal is not exported from @kubejourney/sim yet, so it is imported from source.

import { describe, expect, it } from 'vitest';
import { createLab } from '../../../sim/src/lab';
import { createTerminal, type TerminalResult } from '../../../sim/src/cli/terminal';
import type { TChapter } from './chapter.schema';
import { CHAPTER_LAB_FILES, CMD } from './chapter-commands.data';
import { CHAPTERS } from './chapters.data';

const NOT_UNDERSTOOD =
  /command not found|unknown command|unknown flag|unknown shorthand|error: unknown|usage:/i;

function openLab() {
  const lab = createLab({ seed: 11, startTime: '2026-08-22T09:00:00Z' });
  const terminal = createTerminal(lab, { files: { ...CHAPTER_LAB_FILES } });
  const run = (line: string): TerminalResult => {
    const result = terminal.exec(line);
    lab.advance(3000);
    return result;
  };
  return { lab, terminal, run };
}

function blocksOf(chapter: TChapter) {
  return chapter.sections.flatMap((s) =>
    s.blocks.flatMap((b) => (b.kind === 'command' || b.kind === 'try' ? [b] : [])),
  );
}

describe('chapter commands in a lab', () => {
  it('should understand every command when all chapters are clicked through in order', () => {
    const { terminal, run } = openLab();
    const failures: string[] = [];
    for (const chapter of CHAPTERS.en) {
      for (const block of blocksOf(chapter)) {
        expect([block.id, terminal.host()]).toEqual([block.id, block.host]);
        for (const line of block.commands) {
          const r = run(line);
          if (NOT_UNDERSTOOD.test(r.stderr) || r.exitCode === 127) {
            failures.push(`${chapter.slug}/${block.id}: ${line}\n${r.stderr}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('should show the observations the chapters promise when the key steps are run', () => {
    const { lab, run } = openLab();
    expect(run(CMD.apply).stdout).toBe('deployment.apps/my-app created\n');
    lab.advance(5000);
    expect(run(CMD.getPods).stdout.match(/Running/g)).toHaveLength(3);
    expect(run(CMD.canDeleteNodes).stdout).toBe('yes\n');
    const verbose = run(CMD.applyVerbose);
    expect(verbose.stdout).toBe('deployment.apps/my-app unchanged\n');
    expect(verbose.stderr).toMatch(
      /round_trippers\.go:\d+\] GET https:\/\/\S+\/deployments\/my-app/,
    );
    expect(run(CMD.etcdDeployment).stdout).toContain('/registry/deployments/default/my-app');

    run(CMD.applyService);
    lab.advance(5000);
    expect(run(CMD.getEndpoints).stdout).toMatch(/:80,.*:80,.*:80/);
    run(CMD.scale0);
    lab.advance(60_000);
    expect(run(CMD.getEndpoints).stdout).toContain('<none>');
    run(CMD.scale3);
    lab.advance(10_000);

    run(CMD.stopApiserver);
    lab.advance(5000);
    expect(run(CMD.getPods).stderr).toContain('was refused');
    run(CMD.sshNode1);
    expect(run(CMD.crictlPs).stdout).toContain('Running');
    run(CMD.exit);
    run(CMD.startApiserver);
    lab.advance(15_000);
    expect(run(CMD.getPods).exitCode).toBe(0);

    run(CMD.createSecret);
    // without encryption at rest the value is readable by anyone who can read etcd
    expect(run(CMD.etcdSecret).stdout).toContain('s3cr3t');
  }, 120_000);

  it('should mark node-1 NotReady after the grace period when its kubelet is stopped', () => {
    const { lab, run } = openLab();
    run(CMD.apply);
    lab.advance(10_000);
    run(CMD.sshNode1);
    run(CMD.stopKubelet);
    expect(run(CMD.crictlPs).stdout).toContain('Running');
    run(CMD.exit);
    lab.advance(20_000);
    expect(run(CMD.getNodes).stdout).toMatch(/node-1\s+Ready/);
    lab.advance(40_000);
    expect(run(CMD.getNodes).stdout).toMatch(/node-1\s+NotReady/);
  }, 120_000);

  it('should leave a new Pod Pending with a selector reason when no node has the label', () => {
    const { lab, run } = openLab();
    run(CMD.apply);
    lab.advance(10_000);
    run(CMD.requireSsd);
    lab.advance(5000);
    expect(run(CMD.getPods).stdout).toContain('Pending');
    expect(run(CMD.describePods).stdout).toContain("didn't match Pod's node affinity/selector");
    run(CMD.labelSsd);
    lab.advance(30_000);
    const wide = run(CMD.getPodsWide)
      .stdout.split('\n')
      .filter((l) => l.startsWith('my-app'));
    expect(wide.length).toBe(3);
    for (const line of wide) expect(line).toContain('node-2');

    run(CMD.dropSsd);
    lab.advance(60_000);
    const nodes = run(CMD.getPodsWide).stdout.match(/node-\d/g) ?? [];
    expect(new Set(nodes).size).toBeGreaterThan(1);
  }, 120_000);
});
