import { z } from 'zod';
import { defineJob } from './job-definition';

export const LAB_REARM_JOB = 'lab.rearm';

/**
 * Redis holds no lab state: every minute (and at boot, and after Redis comes back) each lab the
 * database says is converging gets its tick scheduler upserted. Idempotent by construction.
 */
export const labRearmJob = defineJob({
  name: LAB_REARM_JOB,
  payload: z.object({}).strict(),
  schedule: { pattern: '* * * * *', payload: {} },
});
