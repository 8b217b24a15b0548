import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type TJobHandler } from './job-definition';
import { createJobRegistry } from './job-registry';

const greet = defineJob({ name: 'greet', payload: z.object({ who: z.string() }).strict() });
const tidy = defineJob({ name: 'tidy', payload: z.object({}) });

const handler = (name: string, result: unknown = name): TJobHandler => ({
  name,
  handle: async (payload) => ({ result, payload }),
});

describe('createJobRegistry', () => {
  it.each([
    ['a job has no handler', [greet, tidy], [handler('greet')], 'job "tidy" has no handler'],
    [
      'a job has two handlers',
      [greet],
      [handler('greet'), handler('greet')],
      'job "greet" has 2 handlers',
    ],
    [
      'a handler has no job',
      [greet],
      [handler('greet'), handler('ghost')],
      'handler "ghost" has no job definition',
    ],
    ['a job is defined twice', [greet, greet], [handler('greet')], 'job "greet" is defined twice'],
  ])('should refuse to boot when %s', (_case, definitions, handlers, message) => {
    expect(() => createJobRegistry(definitions, handlers)).toThrow(message);
  });

  it('should run the one matching handler with the parsed payload when a job is dispatched', async () => {
    const registry = createJobRegistry([greet, tidy], [handler('tidy'), handler('greet', 'hi')]);
    await expect(registry.dispatch('greet', { who: 'ada' })).resolves.toEqual({
      result: 'hi',
      payload: { who: 'ada' },
    });
  });

  it('should reject the job when its payload does not match the schema', async () => {
    const registry = createJobRegistry([greet], [handler('greet')]);
    await expect(registry.dispatch('greet', { who: 42 })).rejects.toThrow();
    await expect(registry.dispatch('greet', { who: 'ada', extra: 1 })).rejects.toThrow();
  });

  it('should reject the job when its name is unknown', async () => {
    const registry = createJobRegistry([greet], [handler('greet')]);
    await expect(registry.dispatch('nope', {})).rejects.toThrow('Unknown job "nope"');
  });
});
