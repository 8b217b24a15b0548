import { LAB_TICK_JOB, ZLabTickPayload } from '@kubejourney/contracts';
import { defineJob } from './job-definition';

/**
 * Advances one lab to where its clock says it should be. Enqueued by the lab's own Job Scheduler
 * (`lab:<id>`, every LAB_TICK_EVERY_MS) while it converges; the payload names the lab and nothing
 * else, so a retried or duplicated job can never advance a lab twice (the target is computed
 * from the stored clock under the lab's lock).
 */
export const labTickJob = defineJob({ name: LAB_TICK_JOB, payload: ZLabTickPayload });
