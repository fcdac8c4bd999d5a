import { redirect } from 'react-router'
import { describe, expect, it } from 'vitest'
import { endpoints } from '#relay/contract/index.ts'
import { optionalRead } from './optional-read.server.ts'
import { createRelayClient, RelayCallError } from './relay-client.server.ts'

/** A relay client whose transport answers every call with `response`. */
function relayAnswering(response: () => Response, onUnauthenticated?: () => never) {
  return createRelayClient({ transport: async () => response(), baseUrl: 'http://relay.test', accessToken: () => 'token', onUnauthenticated })
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('optionalRead', () => {
  it('passes a successful read through', async () => {
    const relay = relayAnswering(() => json(200, { code: 0, data: { items: [], total: 3, page: 1, pageSize: 10 }, message: 'ok', timestamp: 0 }))
    expect(await optionalRead(relay.call(endpoints.tickets.list))).toEqual({ items: [], total: 3, page: 1, pageSize: 10 })
  })

  it('turns a refusal (a relay without the call answers 404) into null', async () => {
    const relay = relayAnswering(() => json(404, { code: 40400, message: 'not found', error: { details: { reason: 'not_found' } } }))
    await expect(relay.call(endpoints.tickets.list)).rejects.toBeInstanceOf(RelayCallError)
    expect(await optionalRead(relay.call(endpoints.tickets.list))).toBeNull()
  })

  it('turns an outage (5xx) into null', async () => {
    const relay = relayAnswering(() => json(503, { code: 50300, message: 'down', error: { details: { reason: 'unavailable' } } }))
    expect(await optionalRead(relay.call(endpoints.referral.stats))).toBeNull()
  })

  it('lets the sign-out redirect of a 401 through', async () => {
    const relay = relayAnswering(
      () => json(401, { code: 40100, message: 'unauthenticated', error: { details: { reason: 'unauthenticated' } } }),
      () => {
        throw redirect('/auth/login')
      },
    )
    const thrown = await optionalRead(relay.call(endpoints.tickets.list)).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).headers.get('location')).toBe('/auth/login')
  })
})
