import type { IncomingMessage } from 'node:http'

/**
 * What a request to the relay carries besides the Request itself (Hono bindings):
 * - `incoming`: set by @hono/node-server when the relay serves HTTP itself;
 * - `clientIp`: set by an embedding server that calls `relay.fetch(request, { clientIp })`
 *   in-process, where there is no socket (see relay/index.ts).
 */
export interface RelayBindings {
  incoming?: IncomingMessage
  clientIp?: string
}

export interface RelayEnv {
  Bindings: RelayBindings
}
