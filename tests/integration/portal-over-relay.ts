/**
 * For the suites that run on each database kind (`describeEachDatabase`): the portal's build in
 * front of the relay served over loopback HTTP, as a portal with a separate relay runs. `relay()`
 * is read at each request, so the suite points it at the kind now running. The portal's
 * environment is `portalTestEnv` and `env`. The server starts before the suite and stops after it.
 */
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { afterAll, beforeAll, expect } from 'vitest'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { loadPortal, portalTestEnv, Visitor } from './portal-harness.ts'

type Handle = (request: Request) => Promise<Response>

export function portalOverRelay(relay: () => TestRelay, env: Record<string, string> = {}): { handle: Handle; signedIn(account: { username: string; password: string }): Promise<Visitor> } {
  let server: ServerType | undefined
  let portal: Handle | undefined
  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: (request) => relay().relay.fetch(request, { clientIp: '127.0.0.1' }), port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    portal = await loadPortal({ ...portalTestEnv, RELAY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ...env })
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })
  const handle: Handle = (request) => portal!(request)
  return {
    handle,
    /** A visitor signed in through the login form, as a browser without JavaScript signs in. */
    async signedIn(account) {
      const visitor = new Visitor(handle)
      const response = await visitor.submit('/auth/login', { username: account.username, password: account.password })
      expect(response.status).toBe(302)
      return visitor
    },
  }
}
