// Queue names and the BullMQ key prefix, shared by the worker (consumer) and the API (producer).

/** Housekeeping jobs: expired sessions, and later hibernation of idle labs. */
export const MAINTENANCE_QUEUE = 'maintenance';

/** BullMQ keys live under our Redis namespace, e.g. "kj:bull:maintenance:...". */
export function bullmqPrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}
