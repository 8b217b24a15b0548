import type { Condition, KubeObject, LabelSelector } from './meta';
import type { PodTemplateSpec } from './core';

export interface Job extends KubeObject {
  apiVersion: 'batch/v1';
  kind: 'Job';
  spec: {
    completions?: number;
    parallelism?: number;
    backoffLimit?: number;
    activeDeadlineSeconds?: number;
    suspend?: boolean;
    selector?: LabelSelector;
    manualSelector?: boolean;
    template: PodTemplateSpec;
    ttlSecondsAfterFinished?: number;
  };
  status?: {
    active?: number;
    succeeded?: number;
    failed?: number;
    ready?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: Condition[];
  };
}
