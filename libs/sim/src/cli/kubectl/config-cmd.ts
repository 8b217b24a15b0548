// kubectl config view|get-contexts|use-context|current-context|set-context (on ~/.kube/config).

import type { CommandContext } from '../shell/command-types';
import { formatTabbed, GET_TABWRITER } from '../text/tab-writer';
import type { ParsedArgs } from './kube-args';
import { boolFlag, flag } from './kube-args';
import type { Kubeconfig } from './kubeconfig';
import { kubeconfigYaml } from './kubeconfig';
import { Out } from './kubectl-env';
import { toJson } from './kube-output';
import { parse } from 'yaml';

export function runConfig(
  args: ParsedArgs,
  cfg: Kubeconfig,
  path: string,
  ctx: CommandContext,
): Out {
  const out = new Out();
  const [sub, name] = args.positional;
  const save = (c: Kubeconfig) => ctx.fs.write(path, kubeconfigYaml(c));
  switch (sub) {
    case 'view': {
      let c = cfg;
      if (boolFlag(args, 'minify')) {
        const cur = cfg.contexts.find((x) => x.name === cfg.currentContext);
        c = {
          ...cfg,
          contexts: cur ? [cur] : [],
          clusters: cfg.clusters.filter((x) => x.name === cur?.cluster),
          users: cfg.users.filter((u) => u.name === cur?.user),
        };
      }
      const yaml = kubeconfigYaml(c, !boolFlag(args, 'raw', 'flatten'));
      const o = flag(args, 'o', 'output');
      if (o === 'json') return out.out(toJson(parse(yaml)));
      return out.out(yaml);
    }
    case 'current-context':
      if (!cfg.currentContext) return out.fail('current-context is not set');
      return out.out(`${cfg.currentContext}\n`);
    case 'get-contexts': {
      const list = name ? cfg.contexts.filter((c) => c.name === name) : cfg.contexts;
      if (name && list.length === 0) return out.fail(`context ${name} not found`);
      if (flag(args, 'o', 'output') === 'name')
        return out.out(list.map((c) => `${c.name}\n`).join(''));
      let text = 'CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n';
      for (const c of list)
        text += `${c.name === cfg.currentContext ? '*' : ''}\t${c.name}\t${c.cluster}\t${c.user}\t${c.namespace ?? ''}\n`;
      return out.out(formatTabbed(text, GET_TABWRITER));
    }
    case 'use-context':
    case 'use': {
      if (!name) return out.fail('Unexpected args: []');
      if (!cfg.contexts.some((c) => c.name === name))
        return out.fail(`no context exists with the name: "${name}"`);
      save({ ...cfg, currentContext: name });
      return out.out(`Switched to context "${name}".\n`);
    }
    case 'set-context': {
      const target = boolFlag(args, 'current') ? cfg.currentContext : name;
      if (!target) return out.fail('you must specify a non-empty context name or --current');
      const existing = cfg.contexts.find((c) => c.name === target);
      const updated = {
        name: target,
        cluster: flag(args, 'cluster') ?? existing?.cluster ?? '',
        user: flag(args, 'user') ?? existing?.user ?? '',
        ...((flag(args, 'namespace', 'n') ?? existing?.namespace)
          ? { namespace: flag(args, 'namespace', 'n') ?? existing?.namespace }
          : {}),
      };
      save({
        ...cfg,
        contexts: existing
          ? cfg.contexts.map((c) => (c.name === target ? updated : c))
          : [...cfg.contexts, updated],
      });
      return out.out(`Context "${target}" ${existing ? 'modified' : 'created'}.\n`);
    }
    default:
      return out.err(
        sub
          ? `error: unknown command "${sub}" for "kubectl config"\n`
          : 'Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".\n\nAvailable Commands:\n  current-context   Display the current-context\n  get-contexts      Describe one or many contexts\n  set-context       Set a context entry in kubeconfig\n  use-context       Set the current-context in a kubeconfig file\n  view              Display merged kubeconfig settings or a specified kubeconfig file\n',
        sub ? 1 : 0,
      );
  }
}
