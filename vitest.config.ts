import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['relay/**/*.test.ts', 'server/**/*.test.ts', 'app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'tests/container/**/*.test.ts'],
    environment: 'node',
    // Forks, not threads: better-sqlite3 is a native module and each suite owns its database.
    pool: 'forks',
    globalSetup: ['tests/global-setup.ts'],
    // Password hashing (scrypt) and PostgreSQL schema setup make some tests take a few seconds.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
