import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

// WORKAROUND for Prisma 6.19.3 migrations through a driver adapter (engine: "js").
// Delete this file once upstream fixes these, and pass a plain `new PrismaPg(...)` in
// prisma.config.ts instead.
//
// 1. https://github.com/prisma/prisma/issues/27403 ("Column type 'name' could not be
//    deserialized"): the schema engine introspects pg_catalog, whose columns have PostgreSQL
//    system types (name, "char", regproc, pg_node_tree, regclass, ...) that @prisma/adapter-pg
//    does not map, so every migrate command that touches the database fails. We rewrite those
//    type ids to plain types *before* the adapter reads the result fields.
// 2. Shadow database (only `migrate dev`): the stock adapter drops the shadow database while
//    its own pool still holds connections to it, so the second migration fails. We close the
//    shadow pool first and drop with (FORCE).
//    Status on 6.19.3: with this, `migrate dev` replays the migrations on the shadow database,
//    but then stops at its data-loss check ("PostgreSQL shadow DB must be provided through an
//    external factory", inside the Wasm engine). Write new migrations with
//    `prisma migrate diff --from-schema-datamodel <old> --to-schema-datamodel <new> --script`.

const TEXT = 25;
const INT8 = 20;
const TEXT_ARRAY = 1009;

/** PostgreSQL system type id -> the type id the adapter understands. */
export const PG_SYSTEM_TYPE_REPLACEMENTS: Readonly<Record<number, number>> = {
  18: TEXT, // "char"
  19: TEXT, // name
  24: TEXT, // regproc
  28: INT8, // xid
  194: TEXT, // pg_node_tree
  2205: TEXT, // regclass
  2206: TEXT, // regtype
  1002: TEXT_ARRAY, // "char"[]
  1003: TEXT_ARRAY, // name[]
};

// pg's own text[] parser (its typings only list builtin scalar ids, hence the cast).
const parseTextArray = (
  pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => string[]
)(TEXT_ARRAY, 'text');

type TQueryResult = Pick<pg.QueryResult<unknown[]>, 'fields' | 'rows'>;

/**
 * Rewrites system type ids in place. pg leaves these columns unparsed (strings), so scalars are
 * already text; array literals such as `{a,b}` are parsed into string arrays here.
 */
export function mapSystemTypes<T extends TQueryResult>(result: T): T {
  result.fields.forEach((field, column) => {
    const replacement = PG_SYSTEM_TYPE_REPLACEMENTS[field.dataTypeID];
    if (replacement === undefined) return;
    field.dataTypeID = replacement;
    if (replacement !== TEXT_ARRAY) return;
    for (const row of result.rows) {
      const value = row[column];
      if (typeof value === 'string') row[column] = parseTextArray(value);
    }
  });
  return result;
}

// A script of several statements (how `migrate dev` replays migrations on the shadow database)
// comes back from pg as an array of results, one per statement.
type TIOResult = TQueryResult | TQueryResult[];

function mapEachResult(result: TIOResult): TIOResult {
  if (Array.isArray(result)) return result.map(mapSystemTypes);
  return result.fields === undefined ? result : mapSystemTypes(result);
}

type TQueryable = { performIO(query: unknown): Promise<TIOResult> };

// performIO is private in the adapter's types; it is the one place every query result passes
// through before the fields are read. Fail loudly if an upgrade renames it.
function patchQueryable(queryable: object): void {
  const target = queryable as TQueryable;
  if (typeof target.performIO !== 'function') {
    throw new Error(
      'prisma-pg-workaround: adapter has no performIO; check whether #27403 is fixed',
    );
  }
  const performIO = target.performIO.bind(queryable);
  target.performIO = async (query) => mapEachResult(await performIO(query));
}

/** A PrismaPg adapter factory for the Prisma CLI (migrate deploy/status/reset/dev). */
export class PrismaPgForMigrations extends PrismaPg {
  constructor(private readonly connectionString: string) {
    super({ connectionString });
  }

  override async connect(): ReturnType<PrismaPg['connect']> {
    const adapter = await super.connect();
    patchQueryable(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const transaction = await startTransaction(isolationLevel);
      patchQueryable(transaction);
      return transaction;
    };
    return adapter;
  }

  override async connectToShadowDb(): ReturnType<PrismaPg['connectToShadowDb']> {
    const main = await this.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID().replaceAll('-', '')}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const url = new URL(this.connectionString);
    url.pathname = `/${database}`;
    const shadow = await new PrismaPgForMigrations(url.toString()).connect();
    const disposeShadow = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposeShadow(); // close the shadow pool before dropping its database
      await main.executeScript(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await main.dispose();
    };
    return shadow;
  }
}
