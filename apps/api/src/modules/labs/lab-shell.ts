import * as sim from '@kubejourney/sim';
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
  advance: (ms: number) => unknown,
) => TLabCommandOutput;

export const LAB_SHELL = Symbol('LAB_SHELL');

type TTerminal = { exec(line: string): TLabCommandOutput };
type TCreateTerminal = (lab: SimLab) => TTerminal;

/**
 * A view of the lab for the terminal in which letting time pass goes through `advance` (the
 * write context's), so everything a command does is seen by the store.
 */
function withAdvance(lab: SimLab, advance: (ms: number) => unknown): SimLab {
  return new Proxy(lab, {
    get(target, property) {
      if (property === 'advance') {
        return (ms: number) => advance(ms);
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * libs/sim's command line (`createTerminal(lab).exec(line)`). A terminal is built per command:
 * its shell state (cwd, ssh hops, variables) is not part of the serialized lab, so a command
 * always starts as root@control-plane in /root. Looked up on the package namespace: a libs/sim
 * build without the command line answers 503 rather than anything invented.
 */
export const simLabShell: TLabShell = (lab, line, advance) => {
  const createTerminal = (sim as unknown as { createTerminal?: TCreateTerminal }).createTerminal;
  if (typeof createTerminal !== 'function') {
    throw new DomainError('SERVICE_UNAVAILABLE', 'The lab command line is not available yet');
  }
  const { stdout, stderr, exitCode } = createTerminal(withAdvance(lab, advance)).exec(line);
  return { stdout, stderr, exitCode };
};
