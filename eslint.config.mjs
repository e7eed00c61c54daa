import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.cjs', '**/*.mjs', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      // Configuration is parsed once at boot (libs/config) and injected; see STYLE.md.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings from the injected AppConfig (libs/config).' },
      ],
      // Prettier wraps code at 140 columns; this catches what it cannot wrap (comments), and lets
      // string literals (SQL, messages, test names) run long rather than be cut up (ADR 0167).
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  {
    files: [
      'libs/config/**',
      'libs/testing/**',
      'libs/platform/src/boot.ts',
      'test/**',
      'bench/**',
      'apps/cli/**',
      'examples/**',
      '**/*.spec.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The domain is plain functions over data: no framework, no I/O, no configuration.
    files: ['libs/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@notify/contracts',
              allowTypeImports: true,
              message: 'libs/domain takes only types from the contracts (import type).',
            },
          ],
          patterns: [
            {
              group: [
                '@nestjs/*',
                'typeorm',
                'typeorm/*',
                'pg',
                'kafkajs',
                '@eventstore/*',
                'ioredis',
                'fastify',
                'zod',
                'node:*',
                'fs',
                'http',
                'https',
                'net',
              ],
              message: 'libs/domain must stay free of frameworks and I/O.',
            },
            { group: ['@notify/*', '!@notify/contracts'], message: 'libs/domain depends on nothing but contract types.' },
          ],
        },
      ],
    },
  },
  {
    // One home for use cases: the api and the worker adapt their inputs to the application's use
    // cases; they do not decide and append on their own (ADR 0161).
    files: ['apps/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@notify/application',
              importNames: ['handleCommand'],
              message: 'Call a use case of libs/application; add one there if it is missing.',
            },
          ],
        },
      ],
    },
  },
);
