export { printTable, printerFor, resolveNow } from './print-table';
export type { PreparedRow, PrintOptions, ResourcePrinter } from './printer-types';
export { humanDuration, timestampSince } from './human-duration';
export { podStatusCells } from './pod-printer';
export { nodeRoles, nodeStatusCell } from './node-printer';
export { formatEndpoints, servicePorts } from './service-printers';
export { selectorString, formatLabelMap } from './selector-string';
