// The default-scheduler profile of v1.32 (pkg/scheduler/apis/config/v1/default_plugins.go),
// restricted to the plugins the simulator models. Order matters: Filter stops at the first
// plugin that rejects a node, and the FitError histogram only shows that plugin's reasons.

import type { FilterPlugin, ScorePlugin } from '../framework/plugin-types';
import { balancedAllocationPlugin } from './node-resources-balanced-allocation.plugin';
import { imageLocalityPlugin } from './image-locality.plugin';
import { nodeAffinityPlugin } from './node-affinity.plugin';
import { nodeNamePlugin } from './node-name.plugin';
import { nodePortsPlugin } from './node-ports.plugin';
import { nodeResourcesFitPlugin } from './node-resources-fit.plugin';
import { nodeUnschedulablePlugin } from './node-unschedulable.plugin';
import { podTopologySpreadPlugin } from './pod-topology-spread.plugin';
import { taintTolerationPlugin } from './taint-toleration.plugin';
import { volumeBindingPlugin } from './volume-binding.plugin';

export interface WeightedScorePlugin {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  plugin: ScorePlugin<any>;
  weight: number;
}

export interface Profile {
  schedulerName: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  filters: FilterPlugin<any>[];
  scores: WeightedScorePlugin[];
}

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export const DEFAULT_PROFILE: Profile = {
  schedulerName: DEFAULT_SCHEDULER_NAME,
  filters: [
    nodeUnschedulablePlugin,
    nodeNamePlugin,
    taintTolerationPlugin,
    nodeAffinityPlugin,
    nodePortsPlugin,
    nodeResourcesFitPlugin,
    volumeBindingPlugin,
    podTopologySpreadPlugin,
  ],
  scores: [
    { plugin: taintTolerationPlugin, weight: 3 },
    { plugin: nodeAffinityPlugin, weight: 2 },
    { plugin: nodeResourcesFitPlugin, weight: 1 },
    { plugin: podTopologySpreadPlugin, weight: 2 },
    { plugin: balancedAllocationPlugin, weight: 1 },
    { plugin: imageLocalityPlugin, weight: 1 },
  ],
};
