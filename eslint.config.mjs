// `npm run lint` (part of `npm test`): typescript-eslint's recommended rules, React's hook rules,
// the architecture's import arrows (eslint/architecture.mjs, decision 022) and test files that name
// the databases they run on (decision 043). Zero warnings.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import architecture from './eslint/architecture.mjs';

export default tseslint.config(
  {
    ignores: [
      '.next/**',
      '.tmp/**',
      'node_modules/**',
      'data/**',
      'bench/next-baseline/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    plugins: { architecture, 'react-hooks': reactHooks },
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      'architecture/imports': 'error',
      'architecture/test-databases': 'error',
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A variable a closure reads before its one assignment (a handler plugged in later) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Playwright fixtures: \`use\` is Playwright's, not React's, and \`async ({}, use)\` is its fixture signature.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
);
