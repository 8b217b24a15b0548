import type { SimLab } from '@kubejourney/sim';
import { DomainError } from '../../common/domain-error';

/** What one command line prints; never throws (the simulator's command line contract). */
export type TLabCommandOutput = { stdout: string; stderr: string; exitCode: number };

/**
 * Runs one command line (kubectl, etcdctl, the node shell) against a lab. Commands that let time
 * pass (`sleep`, `kubectl rollout status`) must do it through `advance`, so the store sees it.
 */
export type TLabShell = (
  lab: SimLab,
  line: string,
  advance: (ms: number) => void,
) => TLabCommandOutput;

export const LAB_SHELL = Symbol('LAB_SHELL');

type TLabWithExec = SimLab & { exec?: (line: string) => TLabCommandOutput };

/**
 * libs/sim's command line (`lab.exec(line)`, the command line issue). Until a lab exposes it,
 * commands are refused with a 503 rather than answered with anything invented.
 */
export const simLabShell: TLabShell = (lab, line, _advance) => {
  const exec = (lab as TLabWithExec).exec;
  if (typeof exec !== 'function') {
    throw new DomainError('SERVICE_UNAVAILABLE', 'The lab command line is not available yet');
  }
  const { stdout, stderr, exitCode } = exec.call(lab, line);
  return { stdout, stderr, exitCode };
};
