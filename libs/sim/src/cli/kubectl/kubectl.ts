// `kubectl`: global flags, kubeconfig, then one verb. Each verb lives in its own file over the shared
// parser (STYLE.md); this file only dispatches and turns the verb's Out into a CommandResult.

import type { Credentials, ApiResponse } from '../../client/api-client';
import type { Lab, LabRequest } from '../../lab/lab-types';
import type { CommandContext, CommandResult } from '../shell/command-types';
import { FlagError, boolFlag, flag, flagAll, parseKubeArgs } from './kube-args';
import { KubeClient, type KubeClientOptions } from './kube-client';
import type { Kubeconfig } from './kubeconfig';
import { parseKubeconfig } from './kubeconfig';
import type { KubectlEnv } from './kubectl-env';
import { Out } from './kubectl-env';
import { runGet } from './get-cmd';
import { runRun } from './run-cmd';
import { runApply } from './apply-cmd';
import { runCreate } from './create-cmd';
import { runDelete } from './delete-cmd';
import { runDescribe } from './describe-cmd';
import {
  runAnnotateOrLabel,
  runCordon,
  runPatch,
  runScale,
  runTaint,
  runDrain,
  runEdit,
} from './modify-cmds';
import { runRollout } from './rollout-cmd';
import { runExec, runLogs } from './logs-exec-cmd';
import { runAuth } from './auth-cmd';
import { runConfig } from './config-cmd';
import { runApiResources, runClusterInfo, runExplain, runProxy, runVersion } from './info-cmds';
import { runExpose } from './expose-cmd';
import { runDiff } from './diff-cmd';
import { runWait } from './wait-cmd';
import { runSet } from './set-cmd';
import { runApiVersions } from './raw-cmd';
import type { PortForward } from './stream-cmds';
import { runAttach, runCp, runPortForward, runTop } from './stream-cmds';

export interface KubectlDeps {
  lab: Lab;
  nowWallMs(): number;
  advance(ms: number): void;
  /** persisted kubeconfig when ~/.kube/config is missing */
  defaultConfig(): Kubeconfig;
  /** the machine whose ~/.kube/config kubeadm wrote (kubectl elsewhere has no config) */
  kubeconfigHost: string;
  /** set by `kubectl proxy`: the port it serves on */
  startProxy(port: number): void;
  /** set by `kubectl port-forward`: local ports that now reach a pod (replacing earlier ones) */
  startPortForward?(forwards: PortForward[]): void;
  /** puts kubectl's own step (the HTTP request it sends) into the lab's journey; returns its seq */
  recordStep?: KubeClientOptions['recordStep'];
}

type Verb = (env: KubectlEnv) => Out;

const VERBS: Record<string, Verb> = {
  get: runGet,
  run: runRun,
  apply: runApply,
  create: runCreate,
  delete: runDelete,
  describe: runDescribe,
  scale: runScale,
  label: (env) => runAnnotateOrLabel(env, 'label'),
  annotate: (env) => runAnnotateOrLabel(env, 'annotate'),
  patch: runPatch,
  set: runSet,
  expose: runExpose,
  diff: runDiff,
  wait: runWait,
  top: runTop,
  attach: runAttach,
  cp: runCp,
  'api-versions': runApiVersions,
  cordon: (env) => runCordon(env, true),
  uncordon: (env) => runCordon(env, false),
  drain: runDrain,
  taint: runTaint,
  edit: runEdit,
  rollout: runRollout,
  logs: runLogs,
  exec: runExec,
  auth: runAuth,
  'cluster-info': runClusterInfo,
  'api-resources': runApiResources,
  explain: runExplain,
};

const USAGE = `kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Basic Commands (Beginner):
  create          Create a resource from a file or from stdin
  expose          Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service
  run             Run a particular image on the cluster
  set             Set specific features on objects

Basic Commands (Intermediate):
  explain         Get documentation for a resource
  get             Display one or many resources
  edit            Edit a resource on the server
  delete          Delete resources by file names, stdin, resources and names, or by resources and label selector

Deploy Commands:
  rollout         Manage the rollout of a resource
  scale           Set a new size for a deployment, replica set, or replication controller

Cluster Management Commands:
  cluster-info    Display cluster information
  top             Display resource (CPU/memory) usage
  cordon          Mark node as unschedulable
  uncordon        Mark node as schedulable
  drain           Drain node in preparation for maintenance
  taint           Update the taints on one or more nodes

Troubleshooting and Debugging Commands:
  describe        Show details of a specific resource or group of resources
  logs            Print the logs for a container in a pod
  attach          Attach to a running container
  exec            Execute a command in a container
  port-forward    Forward one or more local ports to a pod
  proxy           Run a proxy to the Kubernetes API server
  cp              Copy files and directories to and from containers
  auth            Inspect authorization

Advanced Commands:
  diff            Diff the live version against a would-be applied version
  apply           Apply a configuration to a resource by file name or stdin
  patch           Update fields of a resource
  wait            Experimental: Wait for a specific condition on one or many resources

Settings Commands:
  label           Update the labels on a resource
  annotate        Update the annotations on a resource

Other Commands:
  api-resources   Print the supported API resources on the server
  api-versions    Print the supported API versions on the server, in the form of "group/version"
  config          Modify kubeconfig files
  version         Print the client and server version information

Usage:
  kubectl [flags] [options]

Use "kubectl <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

function toResult(out: Out, log: string): CommandResult {
  return {
    stdout: out.stdout,
    stderr: log + out.stderr,
    exitCode: out.exitCode,
    ...(out.openEditor ? { openEditor: out.openEditor } : {}),
  };
}

export function runKubectl(ctx: CommandContext, deps: KubectlDeps): CommandResult {
  if (ctx.args.length === 0) return { stdout: USAGE, stderr: '', exitCode: 0 };
  const verb = ctx.args.find((a) => !a.startsWith('-')) ?? '';
  let args;
  try {
    args = parseKubeArgs(ctx.args, verb);
  } catch (e) {
    return {
      stdout: '',
      stderr: `error: ${e instanceof FlagError ? e.message : String(e)}\nSee 'kubectl ${verb} --help' for usage.\n`,
      exitCode: 1,
    };
  }
  const verbName = args.positional.shift() ?? '';
  if (boolFlag(args, 'help', 'h')) {
    return {
      stdout:
        verbName && VERBS[verbName]
          ? `${verbName}: see https://kubernetes.io/docs/reference/kubectl/generated/kubectl_${verbName}/\n`
          : USAGE,
      stderr: '',
      exitCode: 0,
    };
  }
  const vRaw = flag(args, 'v', 'verbosity') ?? '0';
  const verbosity = Number(vRaw);
  if (!Number.isInteger(verbosity) || verbosity < 0) {
    return {
      stdout: '',
      stderr: `Error: invalid argument "${vRaw}" for "-v, --v" flag: strconv.ParseInt: parsing "${vRaw}": invalid syntax\nSee 'kubectl ${verbName} --help' for usage.\n`,
      exitCode: 1,
    };
  }
  const configPath = ctx.resolve(
    flag(args, 'kubeconfig') ?? ctx.env.KUBECONFIG ?? '~/.kube/config',
  );
  const configText = ctx.fs.read(configPath);
  const noConfigHere =
    configText === undefined &&
    !flag(args, 'kubeconfig') &&
    !ctx.env.KUBECONFIG &&
    verbName !== 'config' &&
    ctx.host !== deps.kubeconfigHost;
  if (noConfigHere) {
    // no kubeconfig on this machine (a worker node): kubectl falls back to localhost:8080
    const refused =
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?\n';
    if (verbName === 'version') {
      return {
        stdout: 'Client Version: v1.32.5\nKustomize Version: v5.5.0\n',
        stderr: refused,
        exitCode: 1,
      };
    }
    return { stdout: '', stderr: refused, exitCode: 1 };
  }
  let config: Kubeconfig | null =
    configText === undefined ? deps.defaultConfig() : parseKubeconfig(configText);
  if (configText === undefined && (flag(args, 'kubeconfig') || ctx.env.KUBECONFIG)) {
    return {
      stdout: '',
      stderr: `error: stat ${configPath}: no such file or directory\n`,
      exitCode: 1,
    };
  }
  if (!config) {
    return {
      stdout: '',
      stderr: `error: error loading config file "${configPath}": yaml: line 1: did not find expected key\n`,
      exitCode: 1,
    };
  }
  const ctxOverride = flag(args, 'context');
  if (ctxOverride) {
    if (!config.contexts.some((c) => c.name === ctxOverride)) {
      return {
        stdout: '',
        stderr: `error: context "${ctxOverride}" does not exist\n`,
        exitCode: 1,
      };
    }
    config = { ...config, currentContext: ctxOverride };
  }
  if (verbName === 'config') return toResult(runConfig(args, config, configPath, ctx), '');
  if (verbName === 'version' && boolFlag(args, 'client'))
    return toResult(runVersion(null, args), '');
  if (!config.currentContext && verbName !== 'version') {
    return {
      stdout: '',
      stderr:
        'error: current-context is not set\nThe connection to the server localhost:8080 was refused - did you specify the right host or port?\n',
      exitCode: 1,
    };
  }
  // --as / --as-group become Impersonate-* headers: the request authenticates as the kubeconfig
  // user and the apiserver's impersonation filter decides whether it may act as someone else.
  const asUser = flag(args, 'as');
  const asGroups = flagAll(args, 'as-group');
  if (!asUser && asGroups.length) {
    // clientcmd's kubeconfig validation (validateAuthInfo) rejects this before any request
    const authInfo = config.contexts.find((c) => c.name === config?.currentContext)?.user ?? '';
    return {
      stdout: '',
      stderr: `error: invalid configuration: requesting uid, groups or user-extra for ${authInfo} without impersonating a user\n`,
      exitCode: 1,
    };
  }
  const lab: Lab = asUser ? impersonating(deps.lab, { user: asUser, groups: asGroups }) : deps.lab;
  const client = new KubeClient({
    lab,
    config,
    configPath,
    nowWallMs: deps.nowWallMs,
    verbosity,
    recordStep: deps.recordStep,
  });
  const nsFlag = flag(args, 'n', 'namespace');
  const env: KubectlEnv = {
    client,
    args,
    namespace: nsFlag ?? client.namespace,
    namespaceExplicit: nsFlag !== undefined,
    allNamespaces: boolFlag(args, 'A', 'all-namespaces'),
    stdin: ctx.stdin,
    fs: ctx.fs,
    resolve: ctx.resolve,
    host: ctx.host,
    advance: deps.advance,
    editorFile: '/tmp/kubectl-edit.yaml',
  };
  if (verbName === 'version') return toResult(runVersion(env, args), client.log);
  if (verbName === 'proxy')
    return toResult(runProxy(env, deps.startProxy, ctx.env.__BACKGROUND === '1'), client.log);
  if (verbName === 'port-forward')
    return toResult(
      runPortForward(env, (f) => deps.startPortForward?.(f), ctx.env.__BACKGROUND === '1'),
      client.log,
    );
  const fn = VERBS[verbName];
  if (!fn) {
    const hint = suggest(verbName);
    return {
      stdout: '',
      stderr: `error: unknown command "${verbName}" for "kubectl"${hint ? `\n\nDid you mean this?\n${hint}` : '\n'}`,
      exitCode: 1,
    };
  }
  let out: Out;
  try {
    out = fn(env);
  } catch (e) {
    out = new Out().fail(e instanceof Error ? e.message : String(e));
  }
  return toResult(out, client.log);
}

function suggest(verb: string): string {
  const names = [...Object.keys(VERBS), 'config', 'version', 'proxy', 'port-forward'];
  const close = names.filter((n) => levenshtein(n, verb) <= 2);
  return close.length ? `${close.map((c) => `\t${c}\n`).join('')}` : '';
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The lab as seen through `--as`: every request carries the impersonation headers. */
function impersonating(lab: Lab, as: { user: string; groups: string[] }): Lab {
  const impersonate = as.groups.length ? as : { user: as.user };
  const request = (user: string, req: LabRequest): ApiResponse =>
    lab.request(user, { ...req, impersonate });
  return Object.assign(Object.create(lab) as Lab, {
    request,
    requestAs: (credentials: Credentials, req: LabRequest): ApiResponse =>
      lab.requestAs(credentials, { ...req, impersonate }),
  });
}
