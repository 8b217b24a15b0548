// Where the lab gets its components. Each station's folder exports a factory with the name the
// simulator brief fixes; this registry is the single place that wires them in.

import type { KubeProxy } from '../kube-proxy';
import { createKubeProxy } from '../kube-proxy';
import type { NodeHost } from '../node';
import type { Component } from '../runtime/component';

/** The read-only face of the scheduler the lab exposes (decision records for the UI and CLI). */
export interface SchedulerView extends Component {
  decisions(): unknown[];
  decisionFor(namespace: string, podName: string): unknown;
}

export interface ComponentFactories {
  createControllerManager(): Component[];
  createScheduler(): SchedulerView | null;
  createKubelet(host: NodeHost): Component | null;
  createKubeProxy(host: NodeHost): KubeProxy | Component | null;
}

export const componentFactories: ComponentFactories = {
  createControllerManager: () => [],
  createScheduler: () => null,
  createKubelet: () => null,
  createKubeProxy: (host) => createKubeProxy(host),
};
