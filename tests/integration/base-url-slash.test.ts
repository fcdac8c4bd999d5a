/**
 * A base URL ending in '/' (`https://relay.example.com/`) joined with '/v1/messages' by a client
 * or a script makes `//v1/messages`: the production server hands it to its embedded relay, which
 * serves it as `/v1/messages` (relay/http/request-path.ts), for each model API, not the portal's
 * pages (which refuse a foreign POST with 403). The path only survives over a socket: an
 * in-process Request would read `v1` as a host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../relay/db/open-database.ts'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startFakeProvider, type FakeProvider } from '../fixtures/fake-provider.ts'
import { seedCustomer, serveModel, startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'

describe('a base URL ending in / through the production server', () => {
  let database: TestDatabase
  let db: Database
  let server: ProductionServer
  let provider: FakeProvider

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    ;[provider, server] = await Promise.all([startFakeProvider(), startProductionServer(database)])
    db = database.open()
    await serveModel(db, 'slash-model', provider.url)
  }, 120_000)
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    await provider?.close()
    await database?.dispose()
  })

  it('serves //v1/messages, //v1/models and //v1beta/models as the relay, to API keys and Bearer tokens alike', async () => {
    const { key } = await seedCustomer(server, db, 10_000)
    const ask = JSON.stringify({ model: 'slash-model', max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] })
    const post = (headers: Record<string, string>) => fetch(`${server.url}//v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: ask })

    for (const reply of [await post({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }), await post({ authorization: `Bearer ${key}` })]) {
      expect(reply.status).toBe(200)
      expect(await reply.json()).toMatchObject({ type: 'message', model: 'slash-model' })
    }
    expect(provider.received.map((r) => r.url)).toEqual(['/v1/messages', '/v1/messages'])
    const models = await fetch(`${server.url}//v1/models`, { headers: { authorization: `Bearer ${key}` } })
    expect(models.status).toBe(200)
    expect(await models.json()).toMatchObject({ object: 'list' })
    const gemini = await fetch(`${server.url}//v1beta/models`, { headers: { 'x-goog-api-key': key } })
    expect(gemini.status).toBe(200)
    expect(await gemini.json()).toMatchObject({ models: expect.any(Array) })
    // A wrong key is the relay's refusal in the client's format, not the portal's page.
    const wrong = await post({ 'x-api-key': 'sk-relay-wrong' })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
  })
})
