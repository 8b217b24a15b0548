import { LAB_HIBERNATE_JOB } from '@kubejourney/contracts';
import { z } from 'zod';
import { defineJob } from './job-definition';

/** Every minute: labs nobody used for LAB_IDLE_HIBERNATE_MINUTES stop ticking until visited. */
export const labHibernateJob = defineJob({
  name: LAB_HIBERNATE_JOB,
  payload: z.object({}).strict(),
  schedule: { pattern: '* * * * *', payload: {} },
});
