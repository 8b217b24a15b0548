// Printers for the resources added after the first set (kept apart from print-table.ts so that
// file's registry stays small): DaemonSets and the resources that have storage but no controller.

import { daemonSetPrinter } from './daemonset-printer';
import type { ResourcePrinter } from './printer-types';

export const ADDED_PRINTERS: Record<string, ResourcePrinter> = {
  daemonsets: daemonSetPrinter,
};
