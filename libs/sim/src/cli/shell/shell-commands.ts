// The plain-shell commands every host has (coreutils, date, sleep, editors, help).

import type { CommandFn } from './command-types';
import { fail, ok } from './command-types';
import * as cu from './coreutils';
import { MONTH_ABBR, WEEKDAY_ABBR } from '../../shared/time';

export interface ShellClock {
  /** wall-clock ms now (the lab's start time + simulated time) */
  nowWallMs(): number;
  /** `sleep N` lets simulated time pass */
  sleep(ms: number): void;
}

export function formatDate(ms: number, fmt: string | undefined): string {
  const d = new Date(ms);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const map: Record<string, string> = {
    F: `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    Y: String(d.getUTCFullYear()),
    m: p2(d.getUTCMonth() + 1),
    d: p2(d.getUTCDate()),
    H: p2(d.getUTCHours()),
    M: p2(d.getUTCMinutes()),
    S: p2(d.getUTCSeconds()),
    T: `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`,
    s: String(Math.floor(ms / 1000)),
    a: WEEKDAY_ABBR[d.getUTCDay()] as string,
    b: MONTH_ABBR[d.getUTCMonth()] as string,
    Z: 'UTC',
    '%': '%',
  };
  if (fmt === undefined) {
    return `${map.a} ${map.b} ${String(d.getUTCDate()).padStart(2, ' ')} ${map.T} UTC ${map.Y}`;
  }
  return fmt.replace(/%(.)/g, (m, c: string) => map[c] ?? m);
}

const HELP = `GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)
This lab shell understands:
  kubectl ...            talk to the cluster's kube-apiserver
  etcdctl ...            talk to etcd (on the control-plane node)
  ssh <node> / exit      move between nodes
  systemctl, journalctl, crictl, iptables-save, iptables, curl (on a node)
  cat ls cd pwd echo grep head tail wc sort uniq cut base64 tee cp mv rm mkdir touch date sleep
  vi/vim/nano FILE       open FILE in the editor
  history, clear, help
Pipes (|), && || ;, > >> 2>&1, heredocs (<<EOF) and VAR=value prefixes work as in bash.
`;

export function shellCommands(clock: ShellClock): Record<string, CommandFn> {
  const editor: CommandFn = (ctx) => {
    const file = ctx.args.find((a) => !a.startsWith('-') && !a.startsWith('+'));
    if (!file) return fail('Usage: vi FILE (this lab opens files in the editor pane)\n');
    return {
      stdout: '',
      stderr: '',
      exitCode: 0,
      openEditor: { path: ctx.resolve(file), host: ctx.host },
    };
  };
  return {
    echo: cu.echo,
    cat: cu.cat,
    grep: cu.grep,
    egrep: (ctx) => cu.grep({ ...ctx, args: ['-E', ...ctx.args] }),
    head: cu.head,
    tail: cu.tail,
    wc: cu.wc,
    base64: cu.base64,
    sort: cu.sort,
    uniq: cu.uniq,
    cut: cu.cut,
    tee: cu.tee,
    sed: cu.sed,
    ls: cu.ls,
    mkdir: cu.mkdir,
    rm: cu.rm,
    cp: cu.cp,
    mv: cu.mv,
    touch: cu.touch,
    true: cu.trueCmd,
    false: cu.falseCmd,
    vi: editor,
    vim: editor,
    nano: editor,
    help: () => ok(HELP),
    whoami: () => ok('root\n'),
    hostname: (ctx) => ok(`${ctx.host}\n`),
    date: (ctx) => {
      const fmt = ctx.args.find((a) => a.startsWith('+'));
      return ok(`${formatDate(clock.nowWallMs(), fmt?.slice(1))}\n`);
    },
    sleep: (ctx) => {
      const raw = ctx.args[0];
      if (raw === undefined)
        return fail("sleep: missing operand\nTry 'sleep --help' for more information.\n");
      const m = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(raw);
      if (!m)
        return fail(
          `sleep: invalid time interval ‘${raw}’\nTry 'sleep --help' for more information.\n`,
        );
      const unit = m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 1000;
      // bounded: a lab step never runs more than 10 simulated minutes at once
      clock.sleep(Math.min(Number(m[1]) * unit, 600_000));
      return ok();
    },
  };
}
