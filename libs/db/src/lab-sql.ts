import pg from 'pg';
import { Prisma } from './generated/client';

// Labs are stored with hand-written SQL (single statements over arrays, see lab.repository.ts),
// so on their hot path Prisma's client only compiled each raw statement and passed it on: about
// 0.3 ms of CPU per statement on this machine (1.1 ms for a two-statement transaction, against
// 0.3 ms through pg itself), a third of an `exec`'s CPU. The lab repository therefore runs on a
// pg pool of its own. Prisma still owns the schema and the migrations, and every other table.

/**
 * What the lab repository needs from a database handle. A Prisma client or transaction
 * satisfies it too (tests may pass one): the statements are Prisma.sql templates either way.
 */
export interface TDb {
  $queryRaw<T = unknown>(
    query: TemplateStringsArray | Prisma.Sql,
    ...values: unknown[]
  ): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): PromiseLike<number>;
}

export type TLabIsolation = 'ReadCommitted' | 'RepeatableRead';

/** A pool of connections for the lab store; `transaction` hands out one connection in BEGIN. */
export interface TLabDatabase extends TDb {
  transaction<T>(
    work: (tx: TDb) => Promise<T>,
    options?: { isolationLevel?: TLabIsolation },
  ): Promise<T>;
  end(): Promise<void>;
}

const TIMESTAMP_OID = 1114;

/**
 * Prisma stores DateTime in `timestamp(3)` columns as UTC wall time. pg would read such a value
 * in the process's local time zone and send Dates with a local offset; both are pinned to UTC
 * here, for this pool only (Prisma's own adapter keeps pg's defaults).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP_OID && format !== 'binary') {
      return (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

function toParameter(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

function statement(query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
}

function onClient(run: (text: string, values: unknown[]) => Promise<pg.QueryResult>): TDb {
  const exec = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const sql = statement(query, values);
    return run(sql.text, sql.values.map(toParameter));
  };
  return {
    async $queryRaw<T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      return (await exec(query, values)).rows as T;
    },
    async $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      return (await exec(query, values)).rowCount ?? 0;
    },
  };
}

export function createLabDatabase(url: string, options: { max?: number } = {}): TLabDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    // What Prisma's interactive transactions bounded before: waiting for a connection, for a
    // lab's row lock (an exec queued behind a stuck writer), and a writer that stopped mid-way.
    connectionTimeoutMillis: 10_000,
    lock_timeout: 10_000,
    statement_timeout: 30_000,
    idle_in_transaction_session_timeout: 30_000,
  });
  // An idle client that loses its server (PostgreSQL restarted) emits here; the pool drops it.
  pool.on('error', () => undefined);
  const direct = onClient((text, values) => pool.query(text, values));
  return {
    ...direct,
    async transaction(work, options) {
      const client = await pool.connect();
      let isBroken = false;
      try {
        await client.query(
          options?.isolationLevel === 'RepeatableRead'
            ? 'BEGIN ISOLATION LEVEL REPEATABLE READ'
            : 'BEGIN',
        );
        const result = await work(onClient((text, values) => client.query(text, values)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          isBroken = true;
        });
        throw error;
      } finally {
        // A connection that could not even roll back is not handed to the next caller.
        client.release(isBroken);
      }
    },
    end: () => pool.end(),
  };
}
