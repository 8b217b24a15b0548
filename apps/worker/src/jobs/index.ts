import type { TJobDefinition } from './job-definition';
import { sessionsPurgeExpiredJob } from './sessions-purge-expired.job';

/** Every job the worker knows. Add a definition here and its handler in worker-runtime.ts. */
export const JOB_DEFINITIONS: readonly TJobDefinition[] = [sessionsPurgeExpiredJob];
