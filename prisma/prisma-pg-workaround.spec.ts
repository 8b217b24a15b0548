import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { mapSystemTypes, PrismaPgForMigrations } from './prisma-pg-workaround';
import { PrismaPg } from '@prisma/adapter-pg';

// Column types the adapter reports (ColumnTypeEnum in @prisma/driver-adapter-utils).
const TEXT = 7;
const INT64 = 1;
const TEXT_ARRAY = 71;

const field = (name: string, dataTypeID: number) => ({ name, dataTypeID }) as pg.FieldDef;

// What pg returns for a pg_catalog introspection query: system-typed columns, unparsed strings.
const catalogResult = () => ({
  fields: [
    field('relname', 19),
    field('relkind', 18),
    field('conkey_names', 1003),
    field('xmin', 28),
    field('regclass', 2205),
  ],
  rows: [['User', 'r', '{id,email}', '742', '"User"']],
  rowCount: 1,
});

const query = { sql: 'SELECT ...', args: [], argTypes: [] };
const pools: pg.Pool[] = [];

// A real pg.Pool whose query() answers from memory: the adapter requires a Pool instance, and this
// keeps the test off the network.
function fakePool(answer: () => unknown = catalogResult): pg.Pool {
  const pool = new pg.Pool();
  pool.query = (async () => answer()) as unknown as pg.Pool['query'];
  pools.push(pool);
  return pool;
}

/** The workaround factory, answering from a fake pool instead of the one it would build. */
function migrationAdapterOn(pool: pg.Pool) {
  const factory = new PrismaPgForMigrations('postgresql://unused@127.0.0.1:1/none');
  Object.assign(factory, { externalPool: pool });
  return factory.connect();
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

describe('mapSystemTypes', () => {
  it('should map system type ids to text, int8 and text[] when a result has them', () => {
    const result = mapSystemTypes(catalogResult());
    expect(result.fields.map((f) => f.dataTypeID)).toEqual([25, 25, 1009, 20, 25]);
    expect(result.rows[0]).toEqual(['User', 'r', ['id', 'email'], '742', '"User"']);
  });

  it('should leave ordinary columns alone when no system type is present', () => {
    const result = { fields: [field('id', 25), field('n', 23)], rows: [['a', 1]] };
    expect(mapSystemTypes(result)).toEqual({
      fields: [field('id', 25), field('n', 23)],
      rows: [['a', 1]],
    });
  });
});

describe('PrismaPgForMigrations', () => {
  // When this test starts failing, upstream has fixed prisma/prisma#27403: delete the workaround.
  it('should reproduce the upstream bug when the stock adapter reads a system type', async () => {
    const stock = await new PrismaPg(fakePool()).connect();
    await expect(stock.queryRaw(query)).rejects.toMatchObject({
      cause: { kind: 'UnsupportedNativeDataType', type: 'name' },
    });
  });

  it('should deserialize system-typed columns when queries go through the workaround', async () => {
    const adapter = await migrationAdapterOn(fakePool());
    const result = await adapter.queryRaw(query);
    expect(result.columnTypes).toEqual([TEXT, TEXT, TEXT_ARRAY, INT64, TEXT]);
    expect(result.rows[0]).toEqual(['User', 'r', ['id', 'email'], '742', '"User"']);
  });

  // `migrate dev` replays a whole migration file on the shadow database in one call; pg then
  // returns one result per statement.
  it('should pass multi-statement results through when pg returns one result per statement', async () => {
    const perStatement = () => [
      { fields: [], rows: [], rowCount: null },
      { fields: [], rows: [], rowCount: 2 },
    ];
    const adapter = await migrationAdapterOn(fakePool(perStatement));
    await expect(adapter.executeRaw(query)).resolves.toBe(0);
  });
});
