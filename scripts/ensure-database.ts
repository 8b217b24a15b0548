// Creates the database named in DATABASE_URL when it does not exist yet (connecting to the
// server's `postgres` maintenance database), so the quick start and the tests need no psql.
import { Client } from 'pg';

async function main(): Promise<void> {
  const url = new URL(
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/kubejourney',
  );
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

main().catch((err: unknown) => {
  console.error(
    `Could not prepare the database: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});
