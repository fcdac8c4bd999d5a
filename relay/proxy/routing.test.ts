import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RelayConfigInput } from '../config.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { answerPieces, defaultFakeUsage, startFakeProvider, type FakeProvider } from '../../tests/fixtures/fake-provider.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { unusedPort } from '../../tests/fixtures/ports.ts'
import { addTestProvider, callRelay, customer, ledgerOf, priceModel, settled, type Customer } from '../../tests/fixtures/proxy.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { setProviderEnabled } from './providers.ts'
import { rendezvousOrder } from './rendezvous.ts'
import { tokensOfBytes } from './usage-meter.ts'

/** The types of a user's ledger rows, per hold, in the order the holds were taken: settlements of several calls may interleave. */
function holds(rows: Array<{ type: string; hold_id: string | null }>): string[][] {
  const byHold = new Map<string | null, string[]>()
  for (const row of rows) byHold.set(row.hold_id, [...(byHold.get(row.hold_id) ?? []), row.type])
  return [...byHold.values()]
}

/** Small numbers so that a test trips circuits in a few calls; pauses of a millisecond or two. */
const config: Partial<RelayConfigInput> = {
  providerRetryBackoffMs: 1,
  providerBreakerFailures: 3,
  providerBreakerWindowMs: 60_000,
  providerBreakerCoolDownMs: 30_000,
}

describe.each(databaseKinds())('upstream routing (%s)', (kind) => {
  let database: TestDatabase
  // Two relays on one database: what one decides, the other must decide alike.
  let one: TestRelay
  let two: TestRelay
  const fakes: FakeProvider[] = []

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    one = await startTestRelay(database, config)
    two = await startTestRelay(database, config)
    fakes.push(...(await Promise.all([startFakeProvider(), startFakeProvider(), startFakeProvider()])))
  })
  afterAll(async () => {
    await Promise.all(fakes.map((fake) => fake.close()))
    await one?.close()
    await two?.close()
    await database?.dispose()
  })
  afterEach(async () => {
    for (const fake of fakes) {
      fake.reset()
      fake.received.length = 0
    }
    await expectLedgerInvariants(one.relay.db)
  })

  const messages = (model: string, content = 'Hello', extra: Record<string, unknown> = {}) => ({
    model,
    max_tokens: 100,
    messages: [{ role: 'user', content }],
    ...extra,
  })
  const callsOf = (userId: string) =>
    one.relay.db.selectFrom('proxy_calls').select(['provider_id', 'outcome', 'status', 'points']).where('user_id', '=', userId).orderBy('id').execute()
  /** The `state` column of `provider list` for one provider. */
  const stateOf = async (providerId: string) => {
    const listed = await runOperatorCli(one, 'provider', 'list')
    const line = listed.stdout.split('\n').find((l) => l.startsWith(`${providerId} `))
    return line?.split(/ {2,}/)[4]
  }

  it('keeps every session on one provider among equals, on either relay, and moves only the sessions of a provider disabled', async () => {
    await priceModel(one, { model: 'aff-model', kind: 'fixed', points_per_call: 1 })
    const ids = await Promise.all(fakes.map((fake) => addTestProvider(one, { kind: 'anthropic', baseUrl: fake.url, models: ['aff-*'] })))
    const user = await customer(one, 1000)
    const sessions = Array.from({ length: 20 }, (_, i) => `${one.unique('session')}-${i}`)
    /** Each session's ten calls, alternating between the relays; the provider ids that served each session. */
    const round = async () => {
      for (const fake of fakes) fake.received.length = 0
      await Promise.all(
        sessions.map(async (session) => {
          for (let i = 0; i < 10; i++) {
            const headers = { 'x-claude-code-session-id': session }
            const response = await callRelay(i % 2 ? two : one, '/v1/messages', { key: user.key, headers, body: messages('aff-model', session) })
            expect(response.status).toBe(200)
            await response.arrayBuffer()
          }
        }),
      )
      return new Map(
        sessions.map((session) => {
          const servedBy = ids.filter((_, i) => fakes[i]!.received.some((r) => r.body.messages[0].content === session))
          expect(servedBy).toHaveLength(1)
          expect(fakes[ids.indexOf(servedBy[0]!)]!.received.filter((r) => r.body.messages[0].content === session)).toHaveLength(10)
          return [session, servedBy[0]!]
        }),
      )
    }

    const before = await round()
    // The same choice on every relay: a function of the session and the providers only.
    for (const [session, provider] of before) expect(provider).toBe(rendezvousOrder(ids.map((id) => ({ id, priority: 0 })), `session:${session}`)[0]!.id)
    expect(new Set(before.values()).size).toBeGreaterThan(1)

    const disabled = before.get(sessions[0]!)!
    await setProviderEnabled(one.relay.db, disabled, false, one.clock.now())
    // Both relays reread their providers within two seconds (docs/decisions/076-the-hot-path.md): a free call shows
    // when, made by another user so that the calls on record below are only the charged ones.
    const counter = await customer(one, 10)
    const countTokens = (relay: TestRelay) =>
      callRelay(relay, '/v1/messages/count_tokens', { key: counter.key, headers: { 'x-claude-code-session-id': sessions[0]! }, body: messages('aff-model') })
    const reached = () => fakes[ids.indexOf(disabled)]!.received.length
    await expect
      .poll(async () => {
        const seen = reached()
        await Promise.all([countTokens(one), countTokens(two)])
        return reached() === seen
      }, { timeout: 10_000, interval: 100 })
      .toBe(true)

    const after = await round()
    const remaining = ids.filter((id) => id !== disabled).map((id) => ({ id, priority: 0 }))
    for (const session of sessions) {
      if (before.get(session) === disabled) expect(after.get(session)).toBe(rendezvousOrder(remaining, `session:${session}`)[0]!.id)
      else expect(after.get(session)).toBe(before.get(session))
    }
    await settled(one, user.id, 400)
    expect((await ledgerOf(one, user.id)).reduce((sum, row) => sum + row.change, 0)).toBe(-400)
    await expectLedgerInvariants(two.relay.db)
  })

  it('takes the session from metadata.user_id, else from the API key', async () => {
    await priceModel(one, { model: 'key-model', kind: 'fixed', points_per_call: 1 })
    const ids = await Promise.all(fakes.map((fake) => addTestProvider(one, { kind: 'anthropic', baseUrl: fake.url, models: ['key-*'] })))
    const equals = ids.map((id) => ({ id, priority: 0 }))
    const servedBy = () => ids.filter((_, i) => fakes[i]!.received.length > 0)
    const users: Customer[] = []
    for (let i = 0; i < 6; i++) users.push(await customer(one, 10))
    for (const user of users) {
      const metadata = { user_id: `user_${user.id}_account__session_${user.keyId}` }
      for (let i = 0; i < 3; i++) await (await callRelay(one, '/v1/messages', { key: user.key, body: messages('key-model', 'Hi', { metadata }) })).arrayBuffer()
      expect(servedBy()).toEqual([rendezvousOrder(equals, `user:${metadata.user_id}`)[0]!.id])
      for (const fake of fakes) fake.received.length = 0
      for (let i = 0; i < 3; i++) await (await callRelay(two, '/v1/messages', { key: user.key, body: messages('key-model') })).arrayBuffer()
      expect(servedBy()).toEqual([rendezvousOrder(equals, `key:${user.keyId}`)[0]!.id])
      for (const fake of fakes) fake.received.length = 0
    }
    for (const user of users) await settled(one, user.id, 6)
  })

  it('skips a provider whose circuit opened, lets one call try it after the cool-down, and charges every call once', async () => {
    const [broken, backup] = fakes as [FakeProvider, FakeProvider]
    await priceModel(one, { model: 'cb-model', kind: 'fixed', points_per_call: 2 })
    const brokenId = await addTestProvider(one, { kind: 'anthropic', baseUrl: broken.url, models: ['cb-*'], priority: 10 })
    const backupId = await addTestProvider(one, { kind: 'anthropic', baseUrl: backup.url, models: ['cb-*'], priority: 5 })
    const user = await customer(one, 100)
    const call = async () => {
      const response = await callRelay(one, '/v1/messages', { key: user.key, body: messages('cb-model') })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    broken.behaviour = { kind: 'fail', status: 500 }
    expect(await stateOf(brokenId)).toBe('closed')
    for (let i = 0; i < 3; i++) await call()
    expect(broken.received).toHaveLength(3)
    const openUntil = `open until ${new Date(one.clock.now() + 30_000).toISOString().slice(11, 19)}Z`
    await expect.poll(() => stateOf(brokenId)).toBe(openUntil)
    // Open: not even tried.
    await call()
    expect(broken.received).toHaveLength(3)

    one.clock.advance(30_000)
    expect(await stateOf(brokenId)).toBe('half-open')
    // The trial fails: open again, for a new cool-down.
    await call()
    expect(broken.received).toHaveLength(4)
    await expect.poll(() => stateOf(brokenId)).toBe(`open until ${new Date(one.clock.now() + 30_000).toISOString().slice(11, 19)}Z`)
    await call()
    expect(broken.received).toHaveLength(4)

    one.clock.advance(30_000)
    broken.reset()
    // The trial succeeds: closed, and the provider takes the calls again.
    await call()
    await call()
    expect(broken.received).toHaveLength(6)
    await expect.poll(() => stateOf(brokenId)).toBe('closed')

    await settled(one, user.id, 8)
    expect((await callsOf(user.id)).map((c) => c.provider_id)).toEqual([backupId, backupId, backupId, backupId, backupId, backupId, brokenId, brokenId])
    expect((await ledgerOf(one, user.id)).filter((row) => row.type === 'consumed').map((row) => row.change)).toEqual(Array(8).fill(-2))
  })

  it('when every circuit is open answers 503 at once with Retry-After, tries nothing, and lets one trial through after the cool-down', async () => {
    const [first, second] = fakes as [FakeProvider, FakeProvider]
    for (const model of ['open-a', 'open-b', 'open-both']) await priceModel(one, { model, kind: 'fixed', points_per_call: 3 })
    const firstId = await addTestProvider(one, { kind: 'anthropic', baseUrl: first.url, models: ['open-a', 'open-both'] })
    const secondId = await addTestProvider(one, { kind: 'anthropic', baseUrl: second.url, models: ['open-b', 'open-both'] })
    const user = await customer(one, 100)
    const call = (model: string) => callRelay(one, '/v1/messages', { key: user.key, body: messages(model) })
    first.behaviour = { kind: 'fail', status: 529 }
    second.behaviour = { kind: 'fail', status: 529 }
    // Opened one after the other.
    for (let i = 0; i < 3; i++) expect((await call('open-a')).status).toBe(529)
    one.clock.advance(1000)
    for (let i = 0; i < 3; i++) expect((await call('open-b')).status).toBe(529)
    expect([first.received.length, second.received.length]).toEqual([3, 3])
    await expect.poll(async () => [await stateOf(firstId), await stateOf(secondId)]).toEqual([expect.stringMatching(/^open until /), expect.stringMatching(/^open until /)])

    // Both open: refused without an attempt, told to come back when the first cool-down ends.
    const refused = await call('open-both')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('29')
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })
    expect([first.received.length, second.received.length]).toEqual([3, 3])

    // After the first cool-down its trial goes through, and closes it.
    one.clock.advance(29_000)
    first.reset()
    const answered = await call('open-both')
    expect(answered.status).toBe(200)
    await answered.arrayBuffer()
    expect([first.received.length, second.received.length]).toEqual([4, 3])
    await expect.poll(async () => [await stateOf(firstId), await stateOf(secondId)]).toEqual(['closed', expect.stringMatching(/^open until /)])

    await settled(one, user.id, 8)
    const calls = await callsOf(user.id)
    expect(calls.map((c) => [c.outcome, c.points])).toEqual([...Array(7).fill(['failed', 0]), ['completed', 3]])
    expect((await ledgerOf(one, user.id)).reduce((sum, row) => sum + row.change, 0)).toBe(-3)
  })

  it('with a single provider failing, 30 calls make only the attempts that open its circuit', async () => {
    const [only] = fakes as [FakeProvider]
    await priceModel(one, { model: 'single-model', kind: 'fixed', points_per_call: 2 })
    await addTestProvider(one, { kind: 'anthropic', baseUrl: only.url, models: ['single-model'] })
    const user = await customer(one, 100)
    only.behaviour = { kind: 'fail', status: 500 }
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) {
      const response = await callRelay(one, '/v1/messages', { key: user.key, body: messages('single-model') })
      statuses.push(response.status)
      await response.arrayBuffer()
    }
    // providerBreakerFailures (3) attempts fail as 502; the other 27 are refused before reaching it.
    expect(only.received).toHaveLength(3)
    expect(statuses).toEqual([...Array(3).fill(502), ...Array(27).fill(503)])
    await settled(one, user.id, 30)
    expect((await ledgerOf(one, user.id)).reduce((sum, row) => sum + row.change, 0)).toBe(0)
  })

  it('retries a 429, a 529, a reset and a refused connection on the next provider, freezing and settling once', async () => {
    await priceModel(one, { model: 'retry-model', kind: 'variable', input_points_per_mtok: 1_000_000, output_points_per_mtok: 1_000_000 })
    const refused = `http://127.0.0.1:${await unusedPort()}`
    const providers = [
      await addTestProvider(one, { kind: 'anthropic', baseUrl: fakes[0]!.url, models: ['retry-*'], priority: 4 }),
      await addTestProvider(one, { kind: 'anthropic', baseUrl: fakes[1]!.url, models: ['retry-*'], priority: 3 }),
      await addTestProvider(one, { kind: 'anthropic', baseUrl: refused, models: ['retry-*'], priority: 2 }),
      await addTestProvider(one, { kind: 'anthropic', baseUrl: fakes[2]!.url, models: ['retry-*'], priority: 1 }),
    ]
    const user = await customer(one, 10_000)
    fakes[0]!.queue({ kind: 'fail', status: 429 })
    fakes[1]!.queue({ kind: 'fail', status: 529 })
    fakes[2]!.queue({ kind: 'reset' })
    const failed = await callRelay(one, '/v1/messages', { key: user.key, body: messages('retry-model', 'Hello', { stream: true }) })
    // The last provider reset the connection: every provider tried once, then the client is told.
    expect(failed.status).toBe(502)
    expect(fakes.map((f) => f.received.length)).toEqual([1, 1, 1])

    fakes[0]!.queue({ kind: 'fail', status: 500 })
    fakes[1]!.queue({ kind: 'reset' })
    const answered = await callRelay(one, '/v1/messages', { key: user.key, body: messages('retry-model', 'Hello', { stream: true }) })
    expect(answered.status).toBe(200)
    expect(Buffer.from(await answered.arrayBuffer()).equals(fakes[2]!.received.at(-1)!.sent)).toBe(true)
    expect(fakes.map((f) => f.received.length)).toEqual([2, 2, 2])

    await settled(one, user.id, 2)
    expect((await callsOf(user.id)).map((c) => [c.provider_id, c.outcome])).toEqual([
      [providers[3], 'failed'],
      [providers[3], 'completed'],
    ])
    const rows = await ledgerOf(one, user.id)
    // One hold per call, whatever the number of attempts.
    expect(holds(rows)).toEqual([
      ['frozen', 'unfrozen'],
      ['frozen', 'unfrozen', 'consumed'],
    ])
    expect(rows.find((row) => row.type === 'consumed')!.change).toBe(-(defaultFakeUsage.input_tokens + defaultFakeUsage.output_tokens))
  })

  it('retries only within the deadline, while a failure no pause would cure fails over at once', async () => {
    const strict = await startTestRelay(database, { ...config, providerRetryDeadlineMs: 0 })
    try {
      await priceModel(strict, { model: 'deadline-model', kind: 'fixed', points_per_call: 1 })
      await addTestProvider(strict, { kind: 'anthropic', baseUrl: fakes[0]!.url, models: ['deadline-*'], priority: 2 })
      await addTestProvider(strict, { kind: 'anthropic', baseUrl: fakes[1]!.url, models: ['deadline-*'], priority: 1 })
      const user = await customer(strict, 10)
      const call = () => callRelay(strict, '/v1/messages', { key: user.key, body: messages('deadline-model') })
      fakes[0]!.queue({ kind: 'fail', status: 429 })
      expect((await call()).status).toBe(502)
      expect(fakes.map((f) => f.received.length)).toEqual([1, 0, 0])
      fakes[0]!.queue({ kind: 'fail', status: 401 })
      const answered = await call()
      expect(answered.status).toBe(200)
      await answered.arrayBuffer()
      expect(fakes.map((f) => f.received.length)).toEqual([2, 1, 0])
      await settled(strict, user.id, 2)
      // Each call held its price once; the failed one's was given back, the answered one's consumed.
      const rows = await ledgerOf(strict, user.id)
      expect(rows.filter((row) => row.type === 'frozen')).toHaveLength(2)
      expect(rows.filter((row) => row.type === 'consumed').map((row) => row.change)).toEqual([-1])
      await expectLedgerInvariants(strict.relay.db)
    } finally {
      await strict.close()
    }
  })

  it('never retries once a byte reached the client: a reset or malformed stream is settled on what came', async () => {
    await priceModel(one, { model: 'late-model', kind: 'variable', input_points_per_mtok: 1_000_000, output_points_per_mtok: 1_000_000 })
    const [flaky, spare] = fakes as [FakeProvider, FakeProvider]
    await addTestProvider(one, { kind: 'anthropic', baseUrl: flaky.url, models: ['late-*'], priority: 2 })
    await addTestProvider(one, { kind: 'anthropic', baseUrl: spare.url, models: ['late-*'], priority: 1 })
    const user = await customer(one, 10_000)

    // message_start, content_block_start, ping and one text delta; then the connection is reset.
    flaky.queue({ kind: 'reset', afterEvents: 4 })
    const reset = await callRelay(one, '/v1/messages', { key: user.key, body: messages('late-model', 'Hello', { stream: true }) })
    expect(reset.status).toBe(200)
    await expect(reset.text()).rejects.toThrow()

    flaky.queue({ kind: 'malformed' })
    const malformed = await callRelay(one, '/v1/messages', { key: user.key, body: messages('late-model', 'Hello', { stream: true }) })
    expect(malformed.status).toBe(200)
    expect(Buffer.from(await malformed.arrayBuffer()).equals(flaky.received.at(-1)!.sent)).toBe(true)
    expect(spare.received).toHaveLength(0)

    await settled(one, user.id, 2)
    const calls = await callsOf(user.id)
    expect(calls.map((c) => c.outcome)).toEqual(['cut', 'completed'])
    const rows = await ledgerOf(one, user.id)
    expect(holds(rows)).toEqual([
      ['frozen', 'unfrozen', 'consumed'],
      ['frozen', 'unfrozen', 'consumed'],
    ])
    const consumed = rows.filter((row) => row.type === 'consumed').map((row) => -row.change)
    expect(calls.map((c) => c.points)).toEqual(consumed)
    // Input as message_start reported it; output what was delivered.
    expect(consumed[0]).toBe(defaultFakeUsage.input_tokens + tokensOfBytes(Buffer.byteLength(answerPieces()[0]!)))
  })
})
