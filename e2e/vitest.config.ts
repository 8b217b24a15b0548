import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// End-to-end specs drive a real Chromium against a running stack (web + API + PostgreSQL + Redis)
// at E2E_BASE_URL. They share one stack, so they run one file at a time. The shared contracts are
// read from source, so no build is needed to run them.
export default defineConfig({
  resolve: {
    alias: {
      '@kubejourney/contracts': fileURLToPath(
        new URL('../libs/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['specs/**/*.spec.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
