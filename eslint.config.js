import js from '@eslint/js'
import i18next from 'eslint-plugin-i18next'
import tseslint from 'typescript-eslint'

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
    // The portal knows the relay only by its contract: the same calls whether the relay is
    // embedded or runs elsewhere (docs/architecture.md).
    files: ['app/**/*.{ts,tsx}'],
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
