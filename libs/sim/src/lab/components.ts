// Where the lab gets its components. Each station's folder exports a factory with the name the
// simulator brief fixes; this registry is the single place that wires them in.

import { createControllerManager } from '../controllers';
import type { KubeProxy } from '../kube-proxy';
import { createKubeProxy } from '../kube-proxy';
import { createKubelet } from '../kubelet';
import type { NodeHost } from '../node';
import type { Component } from '../runtime/component';
import type { Scheduler } from '../scheduler';
import { createScheduler } from '../scheduler';

/** The read-only face of the scheduler the lab exposes (decision records for the UI and CLI). */
export type SchedulerView = Scheduler;

export interface ComponentFactories {
  createControllerManager(): Component[];
  createScheduler(): SchedulerView | null;
  createKubelet(host: NodeHost): Component | null;
  createKubeProxy(host: NodeHost): KubeProxy | Component | null;
}

export const componentFactories: ComponentFactories = {
  createControllerManager: () => createControllerManager(),
  createScheduler: () => createScheduler(),
  createKubelet: (host) => createKubelet(host),
  createKubeProxy: (host) => createKubeProxy(host),
};
