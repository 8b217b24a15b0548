import { z } from 'zod';
import { defineJob } from './job-definition';

/** Deletes sessions past their expiry; the API already refuses them, this reclaims the rows. */
export const sessionsPurgeExpiredJob = defineJob({
  name: 'sessions.purge-expired',
  payload: z.object({}).strict(),
  schedule: { pattern: '0 * * * *', payload: {} }, // hourly, on the hour
});
