// What the command families (kubectl, etcdctl, node shell) get from the terminal that runs them.
// Kept apart from terminal.ts so that the commands do not import the terminal that imports them.

import type { Lab } from '../lab/lab-types';
import type { SimLab } from '../lab';
import type { Shell } from './shell/shell';
import type { FileSystem } from './shell/vfs';
import type { PortForward } from './kubectl/stream-cmds';

export interface TerminalContext {
  lab: Lab;
  sim?: SimLab;
  fsFor(host: string): FileSystem | undefined;
  nowWallMs(): number;
  advance(ms: number): void;
  proxyPort: number | null;
  /** `kubectl port-forward`: local port -> the pod port it reaches */
  portForwards: Map<number, PortForward>;
  shell: Shell;
}
