import js from '@eslint/js'
import i18next from 'eslint-plugin-i18next'
import tseslint from 'typescript-eslint'

const noEnvWrites = [
  "AssignmentExpression[left.object.object.name='process'][left.object.property.name='env']",
  "AssignmentExpression[left.object.name='process'][left.property.name='env']",
  "UnaryExpression[operator='delete'][argument.object.object.name='process']",
  "CallExpression[callee.object.name='Object'][callee.property.name='assign'][arguments.0.object.name='process'][arguments.0.property.name='env']",
].map((selector) => ({ selector, message: 'Pass configuration down (relay/config.ts: loadConfig, useConfig) instead of writing process.env.' }))

const noSleeps = [
  "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout']",
  "ImportDeclaration[source.value='node:timers/promises']",
  "CallExpression[callee.property.name='waitForTimeout']",
].map((selector) => ({ selector, message: 'Poll for the effect or drain its queue; to let time pass, elapse() from tests/fixtures/time.ts.' }))

export default tseslint.config(
  { ignores: ['build/', 'build-*/', '.react-router/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Every string a person reads comes from the locale files (docs/conventions.md, Strings).
    files: ['app/**/*.tsx'],
    ignores: ['app/**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': ['error', { mode: 'jsx-text-only' }],
    },
  },
  {
    // The configuration is parsed once (relay/config.ts) and passed down: nothing else writes
    // process.env for other modules to read.
    files: ['**/*.{ts,tsx}'],
    ignores: ['relay/config.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noEnvWrites] },
  },
  {
    // A test that sleeps waits for an effect it could poll for or drain, or shows that nothing
    // happened by waiting long enough: tests/fixtures/time.ts says what to do instead.
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    ignores: ['tests/fixtures/time.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noEnvWrites, ...noSleeps] },
  },
  {
    // The portal knows the relay only by its contract: the same calls whether the relay is
    // embedded or runs elsewhere (docs/architecture.md). Its tests may build a configuration.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(#relay/(?!contract/)|(\\.\\./)+relay/(?!contract/))',
              message: 'The portal imports only the relay contract (#relay/contract/…).',
            },
          ],
        },
      ],
    },
  },
)
