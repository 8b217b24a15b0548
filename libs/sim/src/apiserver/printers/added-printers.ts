// Printers for the resources added after the first set (kept apart from print-table.ts so that
// file's registry stays small): DaemonSets and the resources that have storage but no controller.

import {
  apiServicePrinter,
  componentStatusPrinter,
  podTemplatePrinter,
  priorityClassPrinter,
  runtimeClassPrinter,
} from './cluster-printers';
import { daemonSetPrinter } from './daemonset-printer';
import { ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './network-printers';
import type { ResourcePrinter } from './printer-types';
import {
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
} from './storage-printers';

export const ADDED_PRINTERS: Record<string, ResourcePrinter> = {
  apiservices: apiServicePrinter,
  componentstatuses: componentStatusPrinter,
  daemonsets: daemonSetPrinter,
  ingressclasses: ingressClassPrinter,
  ingresses: ingressPrinter,
  networkpolicies: networkPolicyPrinter,
  persistentvolumeclaims: persistentVolumeClaimPrinter,
  persistentvolumes: persistentVolumePrinter,
  podtemplates: podTemplatePrinter,
  priorityclasses: priorityClassPrinter,
  runtimeclasses: runtimeClassPrinter,
  storageclasses: storageClassPrinter,
};
