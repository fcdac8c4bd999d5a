/**
 * Where the relay is. With RELAY_URL the portal is a pure front tier and talks HTTP; otherwise
 * the process entry (server/ in production, the Vite plugin in development) has started the
 * relay in this process and registered its fetch function under a global symbol. A symbol in
 * the global registry is used because the server entry and the app build are separate module
 * graphs: a module-level variable would be two different variables. See
 * docs/decisions/001-one-process-portal-and-relay.md.
 */
import type { RelayTransport } from './relay-client.server.ts'
import { portalConfig } from '#server/env.ts'

export const embeddedRelayKey = Symbol.for('relay-portal.embedded-relay')


export function relayTarget(): { transport: RelayTransport; baseUrl: string } {
  const remote = portalConfig().relayUrl
  if (remote) return { transport: (request) => fetch(request), baseUrl: remote }
  const embedded = (globalThis as Record<symbol, unknown>)[embeddedRelayKey]
  if (typeof embedded !== 'function') {
    throw new Error('No relay: set RELAY_URL, or start the portal through `npm start` / `npm run dev`.')
  }
  return { transport: embedded as RelayTransport, baseUrl: 'http://relay.internal' }
}
