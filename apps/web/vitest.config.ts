import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure modules (src/lib). Pages and components are covered end to end
// by e2e/. The libs resolve to their TypeScript sources, as in the root config.
const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@kubejourney/contracts': src('../../libs/contracts/src/index.ts'),
      '@kubejourney/content': src('../../libs/content/src/index.ts'),
      '@': src('./src'),
    },
  },
  test: {
    name: 'web',
    include: ['src/**/*.spec.ts'],
    root: src('.'),
  },
});
