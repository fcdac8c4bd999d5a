import { beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, useConfig } from '#relay/config.ts'

// A deployment served over https, handed over before the portal's modules read it.
beforeAll(() => {
  useConfig(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://portal.example.com', SESSION_SECRET: 'session-test-secret-0123456789abcdef0123', RELAY_URL: 'https://relay.example.com' }))
})

describe('the session cookie over https', () => {
  it('is named with the __Host- prefix, Secure, host-only and for the whole site', async () => {
    const { commitSession, readSession } = await import('./session.server.ts')
    const session = { accessToken: 'a', refreshToken: 'r', accessExpiresAt: Date.now() + 60_000, refreshExpiresAt: Date.now() + 120_000, remember: false }
    const header = await commitSession(session)
    expect(header).toMatch(/^__Host-session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/)
    expect(header).not.toMatch(/Domain=/i)
    const value = header.slice('__Host-session='.length, header.indexOf(';'))
    expect(await readSession(new Request('https://portal.example.com/', { headers: { cookie: `__Host-session=${value}` } }))).toEqual(session)
    // A cookie without the prefix (planted by a subdomain or over http) is not a session here.
    expect(await readSession(new Request('https://portal.example.com/', { headers: { cookie: `__session=${value}` } }))).toBeNull()
  })
})
