import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * What a request to the relay carries besides the Request itself (Hono bindings), as the server
 * in front passes them to `relay.fetch(request, bindings)` (see relay/index.ts):
 * - `incoming` and `outgoing`: the Node request the Request was made from (its body unread) and
 *   its response, when the server is @hono/node-server; the metered proxy reads the body and
 *   watches for the client leaving on them directly (proxy/client-side.ts);
 * - `clientIp`: the peer's address, for an in-process caller with no socket of its own.
 */
export interface RelayBindings {
  incoming?: IncomingMessage
  outgoing?: ServerResponse
  clientIp?: string
}

export interface RelayEnv {
  Bindings: RelayBindings
  /** `requestId`: the /v1 and /v1beta call's id, minted as it arrives (proxy/request-id.ts). */
  Variables: { requestId: string }
}
