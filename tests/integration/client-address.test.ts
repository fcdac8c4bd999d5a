/**
 * Behind a reverse proxy (TRUST_PROXY=true) the portal's sign-ins are limited per browser, not
 * per proxy: the production server resolves each browser's address once, by the relay's rule, and
 * the relay limits by it. The test plays the proxy, appending each client's address to
 * X-Forwarded-For on a connection that always comes from 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '../../relay/auth/passwords.ts'
import type { Database } from '../../relay/db/open-database.ts'
import { insertUser } from '../../relay/users/users.ts'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'
import { formInputs } from './portal-harness.ts'

type Outcome = 'signed-in' | 'wrong-password' | 'rate-limited' | 'other'

describe('client addresses behind a trusted proxy', () => {
  let database: TestDatabase
  let db: Database
  let server: ProductionServer

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    server = await startProductionServer(database, { TRUST_PROXY: 'true' })
    db = database.open()
    await insertUser(db, Date.now(), { username: 'owner1', email: 'owner1@example.com', passwordHash: await hashPassword('right password 1', 10) })
  }, 60_000)

  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    await database?.dispose()
  })

  /** One browser's sign-in through the portal's form, reaching us through the proxy from `address`. */
  async function signIn(address: string, username: string, password: string): Promise<Outcome> {
    const headers = { 'x-forwarded-for': address, 'accept-language': 'en' }
    const page = await fetch(`${server.url}/auth/login`, { headers })
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const body = new URLSearchParams({ ...formInputs(await page.text()), username, password })
    const answer = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { ...headers, cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    })
    if (answer.status === 302) return 'signed-in'
    const html = await answer.text()
    if (html.includes('Too many attempts')) return 'rate-limited'
    if (html.includes('Wrong username or password')) return 'wrong-password'
    return 'other'
  }

  it('slows a guessed name down, not other names or other clients', async () => {
    // Wrong passwords for a name, known or not, slow that name down after five from anywhere
    // (relay/auth/login-throttle.ts); other names and other clients are not held up by them.
    const guesses: Outcome[] = []
    for (let i = 0; i < 6; i += 1) guesses.push(await signIn('203.0.113.66', 'nobody1', `guess ${i}`))
    expect(guesses.slice(0, 5)).toEqual(Array(5).fill('wrong-password'))
    expect(guesses[5]).toBe('rate-limited')
    expect(await signIn('198.51.100.10', 'nobody200', 'guess 6')).toBe('wrong-password')
    expect(await signIn('198.51.100.10', 'owner1', 'right password 1')).toBe('signed-in')
  })

  it('lets 105 clients sign in without one of them sharing another\'s budget', async () => {
    const outcomes: Outcome[] = []
    for (let i = 1; i <= 105; i += 1) outcomes.push(await signIn(`192.0.2.${i}`, `someone${i}`, 'whatever password'))
    expect(outcomes.filter((o) => o !== 'wrong-password')).toEqual([])
  }, 60_000)

  it('ignores what the client itself wrote before the proxy\'s entry', { timeout: 60_000 }, async () => {
    // A forged first entry does not buy a fresh budget: the proxy's last entry is the address.
    // A name a guess, so only the client's own limit (100 in 15 minutes) can refuse.
    const outcomes: Outcome[] = []
    for (let i = 0; i < 101; i += 1) outcomes.push(await signIn(`10.9.${i}.1, 203.0.113.77`, `forger${i}`, `guess ${i}`))
    expect(outcomes.slice(0, 100)).toEqual(Array(100).fill('wrong-password'))
    expect(outcomes[100]).toBe('rate-limited')
  })
})
