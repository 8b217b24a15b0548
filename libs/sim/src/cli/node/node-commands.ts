// Commands that act on the machine the shell is on: ssh/exit, systemctl, journalctl, crictl,
// iptables-save, iptables -L, curl. They read the NodeHost (containerd, iptables, systemd) that the
// kubelet and kube-proxy simulations keep up to date.

import type { NodeHost, UnitName } from '../../node';
import { formatJournalLine, httpConnect } from '../../node';
import type { CommandContext, CommandFn, CommandResult } from '../shell/command-types';
import { fail, ok } from '../shell/command-types';
import { formatTabbed } from '../text/tab-writer';
import type { TerminalContext } from '../terminal-context';
import { humanSize, systemdSpan, systemdTime, unitsHumanDuration } from './node-format';
import { proxiedApiCall } from './proxy-curl';
import { forwardedRequest } from '../kubectl/stream-cmds';

const UNITS = ['kubelet', 'kube-proxy', 'containerd'];
const TABLES = ['filter', 'nat', 'mangle', 'raw'];
const CRICTL_TAB = { minwidth: 20, tabwidth: 1, padding: 3 };

function hostOf(t: TerminalContext, ctx: CommandContext): NodeHost | undefined {
  return t.sim?.node(ctx.host);
}

function motd(h: NodeHost): string {
  return `Linux ${h.name} 6.1.0-28-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22) x86_64\n\nThe programs included with the Debian GNU/Linux system are free software;\nthe exact distribution terms for each program are described in the\nindividual files in /usr/share/doc/*/copyright.\n\nDebian GNU/Linux comes with ABSOLUTELY NO WARRANTY, to the extent\npermitted by applicable law.\n`;
}

export function nodeCommands(t: TerminalContext): Record<string, CommandFn> {
  const nowMs = () => t.lab.now;
  const epoch = () => t.nowWallMs() - t.lab.now;

  const ssh: CommandFn = (ctx) => {
    const target = ctx.args.find((a) => !a.startsWith('-'))?.replace(/^[^@]+@/, '');
    if (!target)
      return fail(
        'usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address]\n           [-c cipher_spec] [-D [bind_address:]port] [-E log_file]\n           destination [command [argument ...]]\n',
        255,
      );
    const host = t.sim?.nodes().find((h) => h.name === target || h.internalIP === target);
    const fs = host ? t.fsFor(host.name) : undefined;
    if (!host || !fs)
      return fail(`ssh: Could not resolve hostname ${target}: Name or service not known\n`, 255);
    t.shell.enter({ host: host.name, user: 'root', cwd: '/root', home: '/root', fs });
    return ok(motd(host));
  };

  const systemctl: CommandFn = (ctx) => {
    const args = ctx.args.filter((a) => !a.startsWith('-'));
    const [verb, rawUnit] = args;
    const h = hostOf(t, ctx);
    if (!verb)
      return fail(
        'systemctl: this lab supports status, start, stop, restart, is-active, daemon-reload\n',
      );
    if (verb === 'daemon-reload') return ok();
    const unit = rawUnit?.replace(/\.service$/, '');
    if (!unit) return fail(`Too few arguments.\n`);
    if (!h || !UNITS.includes(unit)) {
      if (verb === 'status') return fail(`Unit ${unit}.service could not be found.\n`, 4);
      return fail(`Failed to ${verb} ${unit}.service: Unit ${unit}.service not found.\n`, 5);
    }
    const u = unit as UnitName;
    const ref = { component: u === 'containerd' ? ('containerd' as never) : u, node: h.name };
    switch (verb) {
      case 'start':
        t.sim?.startProcess(ref);
        return ok();
      case 'stop':
        t.sim?.stopProcess(ref);
        return ok();
      case 'restart':
        t.sim?.stopProcess(ref);
        t.sim?.startProcess(ref);
        return ok();
      case 'is-active':
        return h.systemd.isActive(u) ? ok('active\n') : fail('', 3, 'inactive\n');
      case 'status':
        return unitStatus(h, u, nowMs(), epoch());
      default:
        return fail(`Unknown command verb '${verb}'.\n`);
    }
  };

  const journalctl: CommandFn = (ctx) => {
    const h = hostOf(t, ctx);
    if (!h) return fail('No journal files were found.\n');
    let unit: string | undefined;
    let n: number | undefined;
    for (let i = 0; i < ctx.args.length; i++) {
      const a = ctx.args[i] as string;
      if (a === '-u' || a === '--unit') unit = ctx.args[++i];
      else if (a.startsWith('--unit=')) unit = a.slice(7);
      else if (a.startsWith('-u')) unit = a.slice(2);
      else if (a === '-n' || a === '--lines') n = Number(ctx.args[++i]);
      else if (a.startsWith('-n')) n = Number(a.slice(2));
    }
    unit = unit?.replace(/\.service$/, '');
    if (unit && !UNITS.includes(unit)) return ok('-- No entries --\n');
    let entries = h.systemd.entries(unit as UnitName | undefined);
    if (n !== undefined && Number.isFinite(n)) entries = entries.slice(-n);
    if (entries.length === 0) return ok('-- No entries --\n');
    return ok(entries.map((e) => formatJournalLine(e, h.name, epoch())).join('\n') + '\n');
  };

  const crictl: CommandFn = (ctx) => crictlCmd(ctx, hostOf(t, ctx), nowMs());

  const iptablesSave: CommandFn = (ctx) => {
    const h = hostOf(t, ctx);
    if (!h) return fail('iptables-save: this machine has no iptables\n');
    const tIdx = ctx.args.indexOf('-t');
    const table = tIdx >= 0 ? ctx.args[tIdx + 1] : undefined;
    if (table !== undefined && !TABLES.includes(table)) {
      return fail('iptables-save v1.8.9 (nf_tables): Cannot initialize: Table does not exist\n', 1);
    }
    return ok(
      h.iptables.save({
        ...(table ? { table: table as never } : {}),
        when: new Date(t.nowWallMs()).toUTCString(),
      }),
    );
  };

  const iptables: CommandFn = (ctx) => {
    const h = hostOf(t, ctx);
    if (!h) return fail('iptables: this machine has no iptables\n');
    let table = 'filter';
    let chain: string | undefined;
    let list = false;
    for (let i = 0; i < ctx.args.length; i++) {
      const a = ctx.args[i] as string;
      if (a === '-t') table = ctx.args[++i] ?? 'filter';
      else if (a === '-L' || a === '--list') {
        list = true;
        const next = ctx.args[i + 1];
        if (next && !next.startsWith('-')) chain = ctx.args[++i];
      } else if (/^-[nvL]+$/.test(a) && a.includes('L')) {
        list = true;
        const next = ctx.args[i + 1];
        if (next && !next.startsWith('-')) chain = ctx.args[++i];
      }
    }
    if (!list)
      return fail(
        'iptables v1.8.9 (nf_tables): this lab only lists rules (-L); kube-proxy owns them\n',
        2,
      );
    if (!TABLES.includes(table)) {
      return fail(
        `iptables v1.8.9 (nf_tables): can't initialize iptables table \`${table}': Table does not exist (do you need to insmod?)\nPerhaps iptables or your kernel needs to be upgraded.\n`,
        3,
      );
    }
    if (!chain) return ok(h.iptables.listAll(table as never));
    const text = h.iptables.listChain(chain, table as never);
    return text === null ? fail(`iptables: No chain/target/match by that name.\n`) : ok(text);
  };

  const curl: CommandFn = (ctx) => {
    const url = ctx.args.find((a) => !a.startsWith('-'));
    if (!url) return fail("curl: try 'curl --help' or 'curl --manual' for more information\n", 2);
    const m = /^(?:(https?):\/\/)?([^/:]+)(?::(\d+))?(\/[^\s]*)?$/.exec(url);
    if (!m) return fail(`curl: (3) URL using bad/illegal format or missing URL\n`, 3);
    const [, scheme, hostName, portRaw, path] = m;
    const port = Number(portRaw ?? (scheme === 'https' ? 443 : 80));
    if (
      (hostName === 'localhost' || hostName === '127.0.0.1') &&
      t.proxyPort !== null &&
      port === t.proxyPort
    ) {
      return proxiedApiCall(t, path ?? '/');
    }
    const forward =
      hostName === 'localhost' || hostName === '127.0.0.1' ? t.portForwards.get(port) : undefined;
    if (forward) return forwardedRequest(t.lab, t.sim?.nodes(), forward, hostName, path ?? '/');
    if (hostName === 'localhost' || hostName === '127.0.0.1')
      return fail(
        `curl: (7) Failed to connect to ${hostName} port ${port} after 0 ms: Couldn't connect to server\n`,
        7,
      );
    const h = hostOf(t, ctx);
    if (!h || !t.sim || !/^\d+\.\d+\.\d+\.\d+$/.test(hostName as string))
      return fail(`curl: (6) Could not resolve host: ${hostName}\n`, 6);
    const r = httpConnect(t.sim.nodes(), h.name, hostName as string, port, path ?? '/', nowMs());
    if (!r.ok) {
      if (r.error === 'timeout' || r.error === 'no route to host')
        return fail(
          `curl: (28) Failed to connect to ${hostName} port ${port} after 135771 ms: Couldn't connect to server\n`,
          28,
        );
      return fail(
        `curl: (7) Failed to connect to ${hostName} port ${port} after 0 ms: Couldn't connect to server\n`,
        7,
      );
    }
    return ok(r.body ?? '');
  };

  return { ssh, systemctl, journalctl, crictl, 'iptables-save': iptablesSave, iptables, curl };
}

function unitStatus(h: NodeHost, unit: UnitName, now: number, epoch: number): CommandResult {
  const u = h.systemd.get(unit);
  const since = `${systemdTime(epoch + u.since)}; ${systemdSpan(now - u.since)} ago`;
  let s = `${u.active ? '●' : '○'} ${unit}.service - ${u.description}\n`;
  s += `     Loaded: loaded (${u.fragmentPath}; enabled; preset: enabled)\n`;
  if (u.dropIns)
    s += `    Drop-In: ${u.dropIns.dir}\n             └─${u.dropIns.files.join(', ')}\n`;
  s += u.active
    ? `     Active: active (running) since ${since}\n`
    : `     Active: inactive (dead) since ${since}\n`;
  if (unit === 'kubelet') s += '       Docs: https://kubernetes.io/docs/\n';
  if (u.active) {
    s += `   Main PID: ${u.mainPid} (${unit})\n      Tasks: ${unit === 'containerd' ? 11 : 14} (limit: 4915)\n     Memory: ${unit === 'kubelet' ? '42.1M' : unit === 'containerd' ? '38.6M' : '17.3M'}\n        CPU: ${(Math.max(1, now - u.since) / 97_000).toFixed(3)}s\n     CGroup: /system.slice/${unit}.service\n             └─${u.mainPid} /usr/bin/${unit}\n`;
  }
  const lines = h.systemd
    .entries(unit)
    .slice(-10)
    .map((e) => formatJournalLine(e, h.name, epoch));
  if (lines.length) s += `\n${lines.join('\n')}\n`;
  return { stdout: s, stderr: '', exitCode: u.active ? 0 : 3 };
}

function crictlCmd(ctx: CommandContext, h: NodeHost | undefined, now: number): CommandResult {
  if (!h) return fail('crictl: no container runtime on this machine\n');
  if (!h.systemd.isActive('containerd')) {
    return fail(
      'E0105 09:00:00.000000    4242 remote_runtime.go:277] "ListContainers with filter from runtime service failed" err="rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused\\""\nFATA[0000] validate service connection: validate CRI v1 runtime API for endpoint "unix:///run/containerd/containerd.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"\n',
    );
  }
  const [sub, ...rest] = ctx.args;
  const short = (id: string) => id.replace(/^sha256:/, '').slice(0, 13);
  const c = h.containerd;
  switch (sub) {
    case 'ps': {
      const all = rest.includes('-a') || rest.includes('--all');
      const sandboxes = new Map(c.listSandboxes().map((s) => [s.id, s]));
      let text = 'CONTAINER\tIMAGE\tCREATED\tSTATE\tNAME\tATTEMPT\tPOD ID\tPOD\tNAMESPACE\n';
      for (const x of c.listContainers({ all }).sort((a, b) => b.createdAt - a.createdAt)) {
        const state =
          x.state === 'running' ? 'Running' : x.state === 'exited' ? 'Exited' : 'Created';
        const sb = sandboxes.get(x.sandboxId);
        text += `${short(x.id)}\t${short(x.imageId)}\t${unitsHumanDuration(now - x.createdAt)} ago\t${state}\t${x.name}\t${x.attempt}\t${short(x.sandboxId)}\t${sb?.podName ?? x.podName}\t${x.namespace}\n`;
      }
      return ok(formatTabbed(text, CRICTL_TAB));
    }
    case 'pods': {
      let text = 'POD ID\tCREATED\tSTATE\tNAME\tNAMESPACE\tATTEMPT\tRUNTIME\n';
      for (const s of c.listSandboxes().sort((a, b) => b.createdAt - a.createdAt)) {
        text += `${short(s.id)}\t${unitsHumanDuration(now - s.createdAt)} ago\t${s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady'}\t${s.podName}\t${s.namespace}\t${s.attempt}\t(default)\n`;
      }
      return ok(formatTabbed(text, CRICTL_TAB));
    }
    case 'images':
    case 'img': {
      let text = 'IMAGE\tTAG\tIMAGE ID\tSIZE\n';
      for (const i of [...c.listImages()].sort((a, b) => (a.repository < b.repository ? -1 : 1)))
        text += `${i.repository}\t${i.tag}\t${short(i.id)}\t${humanSize(i.sizeBytes)}\n`;
      return ok(formatTabbed(text, CRICTL_TAB));
    }
    case 'logs': {
      const id = rest.find((a) => !a.startsWith('-'));
      if (!id) return fail('FATA[0000] ID cannot be empty\n');
      const x = c.listContainers({ all: true }).find((k) => k.id.startsWith(id));
      if (!x)
        return fail(
          `E0105 09:00:00.000000    4242 remote_runtime.go:1177] "ContainerStatus from runtime service failed" err="rpc error: code = NotFound desc = an error occurred when try to find container \\"${id}\\": not found" containerID="${id}"\nFATA[0000] rpc error: code = NotFound desc = an error occurred when try to find container "${id}": not found\n`,
        );
      const out = x.logs
        .filter((l) => l.stream === 'stdout')
        .map((l) => `${l.line}\n`)
        .join('');
      const err = x.logs
        .filter((l) => l.stream === 'stderr')
        .map((l) => `${l.line}\n`)
        .join('');
      return { stdout: out, stderr: err, exitCode: 0 };
    }
    default:
      return fail(
        sub
          ? `No help topic for '${sub}'\n`
          : 'NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options]\n\nCOMMANDS:\n   images, image, img  List images\n   logs                Fetch the logs of a container\n   pods                List pods\n   ps                  List containers\n',
      );
  }
}
