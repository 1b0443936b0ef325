// @ts-check
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * STYLE.md's one-way imports: shared (lib, components, api, offline) → features/<area> → routes
 * and app. A feature never reaches into another feature; shared code never imports upwards.
 */
const features = fs.existsSync('src/features')
  ? fs
      .readdirSync('src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const upward = (message) => ({
  group: [
    '@/features/*',
    '@/features/**',
    '@/routes/*',
    '@/routes/**',
    '@/app/*',
    '@/app/**',
    '../features/*',
    '../../features/*',
  ],
  message,
});

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'src/routeTree.gen.ts',
      'test-results',
      'playwright-report',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/lib/**', 'src/components/**', 'src/api/**', 'src/offline/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            upward(
              'Shared code (lib, components, api, offline) must not import features, routes or the app.',
            ),
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@/features/*',
                '@/features/**',
                `!@/features/${feature}`,
                `!@/features/${feature}/**`,
              ],
              message: `A feature must not import another feature's internals (in features/${feature}).`,
            },
            {
              group: ['@/routes/*', '@/routes/**', '@/app/*', '@/app/**'],
              message: 'Features must not import routes or the app.',
            },
            {
              group: ['../*/**', '../../*'],
              message: `Import shared code through "@/…"; stay inside features/${feature} for relative imports.`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['server/**', 'tests/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!lib/(search|exports)/\\w+$)|^@/',
              message:
                'The server does not import the app (src/lib/search/ and src/lib/exports/ are shared with it).',
            },
          ],
        },
      ],
    },
  },
  /**
   * The one exception: the spec's polygon rules are shared so the app and the API refuse the
   * same polygons with the same words. Only server/geometry/polygon.ts may import them, and only
   * that file of the app; the rest of the server goes through it.
   */
  {
    files: ['server/geometry/polygon.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!lib/polygon$)|^@/',
              message: 'The server does not import the app (src/lib/polygon.ts is the exception).',
            },
          ],
        },
      ],
    },
  },
  /** Likewise the worker configuration rules, through server/services/workers/configurationRules.ts. */
  {
    files: ['server/services/workers/configurationRules.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!lib/workerConfiguration$)|^@/',
              message:
                'The server does not import the app (src/lib/workerConfiguration.ts is the exception).',
            },
          ],
        },
      ],
    },
  },
  /** Likewise a process' modes and states, through server/services/processes/state.ts. */
  {
    files: ['server/services/processes/state.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!lib/processStates$)|^@/',
              message:
                'The server does not import the app (src/lib/processStates.ts is the exception).',
            },
          ],
        },
      ],
    },
  },
  /** Search's folding, syntax and matcher run in the app, the offline worker and the server. */
  {
    files: ['src/lib/search/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./\\w+$)',
              message:
                'The server runs src/lib/search/ too: its files import only each other, so no app code reaches the server through them.',
            },
          ],
        },
      ],
    },
  },
  /** The PAGE XML, ALTO and CSV writers run in the server, the export worker and the browser. */
  {
    files: ['src/lib/exports/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./\\w+$|\\.\\./polygon$)',
              message:
                'The server and the export worker run src/lib/exports/ too: its files import only each other and src/lib/polygon.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/lib/polygon.ts', 'src/lib/workerConfiguration.ts', 'src/lib/processStates.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '.',
              message:
                'The server runs src/lib/polygon.ts, src/lib/workerConfiguration.ts and src/lib/processStates.ts too: they import nothing, so no app code reaches the server through them.',
            },
          ],
        },
      ],
    },
  },
);
