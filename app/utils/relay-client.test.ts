import { describe, expect, it } from 'vitest'
import { createRelayClient, normalise } from './relay-client.server.ts'

describe('normalise (docs/product.md)', () => {
  it('takes a body with a success flag as is', () => {
    expect(normalise(200, { success: true, data: { a: 1 } })).toEqual({ success: true, data: { a: 1 }, message: undefined })
    expect(normalise(200, { success: false, message: 'nope' })).toMatchObject({ success: false, message: 'nope' })
  })

  it('treats code 0 as success and any other code as an error with code, message and details', () => {
    expect(normalise(200, { code: 0, data: [1], message: 'ok', timestamp: 1 })).toEqual({ success: true, data: [1], message: 'ok' })
    expect(normalise(200, { code: 42201, message: 'bad code', error: { details: { reason: 'code_invalid' } } })).toEqual({
      success: false,
      message: 'bad code',
      code: 42201,
      details: { reason: 'code_invalid' },
    })
  })

  it('takes the message of a non-OK answer from msg, message, error.details, error.message, in that order', () => {
    expect(normalise(500, { msg: 'from msg', message: 'from message' })).toMatchObject({ message: 'from msg' })
    expect(normalise(500, { message: 'from message' })).toMatchObject({ message: 'from message' })
    expect(normalise(500, { error: { details: 'from details', message: 'from error.message' } })).toMatchObject({ message: 'from details' })
    expect(normalise(500, { error: { message: 'from error.message' } })).toMatchObject({ message: 'from error.message' })
    expect(normalise(502, 'Bad Gateway')).toMatchObject({ success: false, message: 'HTTP error! status: 502' })
  })
})

describe('createRelayClient', () => {
  function countingRelay() {
    const seen: string[] = []
    const transport = async (request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`)
      return Response.json({ code: 0, data: { n: seen.length }, message: 'ok', timestamp: 0 })
    }
    return { seen, client: createRelayClient({ transport, baseUrl: 'http://relay.test' }) }
  }

  it('reads the same thing once per request, and again after a write', async () => {
    const { seen, client } = countingRelay()
    const [a, b] = await Promise.all([client.get('/api/user/info'), client.get('/api/user/info')])
    expect(a).toEqual(b)
    await client.get('/api/user/info', { page: 2 })
    await client.post('/api/user/redeem-code', {})
    await client.get('/api/user/info')
    expect(seen).toEqual(['GET /api/user/info', 'GET /api/user/info', 'POST /api/user/redeem-code', 'GET /api/user/info'])
  })
})
