/**
 * The portal benchmarks' server: the production build in this process with the relay embedded,
 * as `server/main.ts` starts them, on the database `database` names (its DATABASE_URL, and
 * DATABASE_SCHEMA for PostgreSQL) given a fresh temporary data directory. Needs a build
 * (`npm run build`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, useConfig } from '../relay/config.ts'
import type { Visitor } from '../tests/integration/portal-harness.ts'

export async function startInProcessPortal(name: string, database: (dataDir: string) => Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`))
  // Handed over before the portal build loads, as scripts/start.ts does.
  const config = useConfig(
    loadConfig({
      NODE_ENV: 'production',
      ...database(dataDir),
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789abcdef',
      LOG_LEVEL: 'error',
      PUBLIC_URL: 'http://portal.test',
    }),
  )
  const { startEmbeddedRelay } = await import('../server/embedded-relay.ts')
  const harness = await import('../tests/integration/portal-harness.ts')
  const relay = await startEmbeddedRelay(config.relay!)
  const handle = await harness.loadPortal()
  return {
    visitor: (): Visitor => new harness.Visitor(handle),
    async signedIn(username: string, password: string): Promise<Visitor> {
      const visitor = new harness.Visitor(handle)
      const login = await visitor.submit('/auth/login', { username, password })
      if (login.status !== 302) throw new Error(`${username}: login answered ${login.status}`)
      return visitor
    },
    async close(): Promise<void> {
      await relay.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
