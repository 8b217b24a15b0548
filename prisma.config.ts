import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPgForMigrations } from './prisma/prisma-pg-workaround';

// The CLI runs on the WebAssembly schema engine through a driver adapter: Prisma's native engines
// cannot be downloaded on our machines (see shared/design/STACK.md). Note: with a config file the
// CLI does not read .env, so export DATABASE_URL (the default matches the local dev database).
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/kubejourney';
// schema.prisma's env("DATABASE_URL") is still validated by Prisma 6, so give it the same value.
const databaseUrl = (process.env.DATABASE_URL ??= DEFAULT_DATABASE_URL);

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations'), seed: 'tsx prisma/seed.ts' },
  engine: 'js',
  experimental: { adapter: true },
  adapter: async () => new PrismaPgForMigrations(databaseUrl),
});
