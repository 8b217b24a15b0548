import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources of the libs (no build step needed), and through SWC so
// that NestJS decorators emit the metadata its dependency injection reads.
const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = {
  '@kubejourney/sim': src('./libs/sim/src/index.ts'),
  '@kubejourney/contracts': src('./libs/contracts/src/index.ts'),
  '@kubejourney/content': src('./libs/content/src/index.ts'),
  '@kubejourney/db': src('./libs/db/src/index.ts'),
};
const plugins = [swc.vite({ jsc: { target: 'es2022' } })];

export default defineConfig({
  test: {
    projects: [
      // The web app's pure modules (project `web`), with its own `@/` alias.
      'apps/web/vitest.config.ts',
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'unit',
          include: [
            'libs/*/src/**/*.spec.ts',
            'libs/*/test/**/*.spec.ts',
            'apps/api/src/**/*.spec.ts',
            'apps/worker/src/**/*.spec.ts',
            'prisma/**/*.spec.ts',
          ],
          exclude: ['**/*.int.spec.ts', '**/node_modules/**', '**/dist/**'],
        },
      },
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'integration',
          // Creates TEST_DATABASE_URL's database if missing and runs `prisma migrate deploy` on it.
          globalSetup: ['libs/db/test/integration-global-setup.ts'],
          include: [
            'apps/*/src/**/*.int.spec.ts',
            'apps/*/test/**/*.int.spec.ts',
            'libs/db/src/**/*.int.spec.ts',
            'prisma/**/*.int.spec.ts',
          ],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
