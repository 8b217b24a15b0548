import type { TJobDefinition, TJobHandler } from './job-definition';

export type TJobRegistry = {
  definitions: readonly TJobDefinition[];
  /** Validates the payload against the job's schema, then runs its one handler. */
  dispatch(name: string, payload: unknown): Promise<unknown>;
};

/**
 * Pairs every definition with exactly one handler. Boot fails on a definition without a handler,
 * a name handled twice, or a handler for an unknown job: a worker that would silently drop or
 * double-process jobs should not start.
 */
export function createJobRegistry(
  definitions: readonly TJobDefinition[],
  handlers: readonly TJobHandler[],
): TJobRegistry {
  const byName = new Map<string, { definition: TJobDefinition; handler: TJobHandler }>();
  const problems: string[] = [];
  const definitionNames = new Set<string>();
  for (const definition of definitions) {
    if (definitionNames.has(definition.name))
      problems.push(`job "${definition.name}" is defined twice`);
    definitionNames.add(definition.name);
  }
  for (const definition of definitions) {
    const matching = handlers.filter((handler) => handler.name === definition.name);
    if (matching.length === 0) problems.push(`job "${definition.name}" has no handler`);
    if (matching.length > 1)
      problems.push(`job "${definition.name}" has ${matching.length} handlers`);
    const [handler] = matching;
    if (handler) byName.set(definition.name, { definition, handler });
  }
  for (const handler of handlers) {
    if (!definitionNames.has(handler.name))
      problems.push(`handler "${handler.name}" has no job definition`);
  }
  if (problems.length > 0) throw new Error(`Invalid job registry: ${problems.join('; ')}`);

  return {
    definitions,
    async dispatch(name, payload) {
      const entry = byName.get(name);
      if (!entry) throw new Error(`Unknown job "${name}"`);
      return entry.handler.handle(entry.definition.payload.parse(payload));
    },
  };
}
