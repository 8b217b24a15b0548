import { createLab } from '@kubejourney/sim';
import { describe, expect, it } from 'vitest';
import { simLabShell } from './lab-shell';

// The first command of a sandbox finds the chapter files in /root; later commands never put them
// back over what the learner changed.

const FILES = { 'deployment.yaml': 'kind: Deployment\n' };

describe('simLabShell', () => {
  it('should put the initial files in /root when the shell is fresh', () => {
    const lab = createLab({ seed: 7 });
    const first = simLabShell(
      lab,
      'cat /root/deployment.yaml',
      (ms) => lab.advance(ms),
      null,
      FILES,
    );
    expect(first).toMatchObject({ stdout: 'kind: Deployment\n', exitCode: 0 });
  });

  it('should keep the learner edits when the shell already has a state', () => {
    const lab = createLab({ seed: 7 });
    const advance = (ms: number) => lab.advance(ms);
    const first = simLabShell(lab, 'echo edited > deployment.yaml', advance, null, FILES);
    const second = simLabShell(lab, 'cat deployment.yaml', advance, first.terminalState, FILES);
    expect(second).toMatchObject({ stdout: 'edited\n', exitCode: 0 });
  });

  it('should write no files when none are given', () => {
    const lab = createLab({ seed: 7 });
    const result = simLabShell(lab, 'cat deployment.yaml', (ms) => lab.advance(ms), null);
    expect(result.exitCode).not.toBe(0);
  });
});
