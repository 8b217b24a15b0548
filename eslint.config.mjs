import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      'libs/db/src/generated/**',
      'apps/web/next-env.d.ts',
      'e2e/artifacts/**',
      '.scratch/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'Use an injected seeded Rng.',
        },
      ],
    },
  },
  {
    files: ['libs/sim/**/*.ts'],
    rules: {
      // Only in libs: NestJS reads constructor parameter types at run time, so apps keep value imports.
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message: 'libs/sim is pure: time comes in from outside.',
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'libs/sim has no wall clock.' },
        { name: 'setInterval', message: 'libs/sim has no wall clock.' },
      ],
    },
  },
  {
    files: ['**/*.cjs', '**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
