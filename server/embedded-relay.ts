/**
 * Starts the relay inside this process and hands the portal its fetch function under the global
 * symbol the portal's relay transport looks for (docs/decisions/001-one-process-portal-and-relay.md).
 */
import type { RelayConfig } from '#relay/config.ts'
import { startRelay } from '#relay/index.ts'

const embeddedRelayKey = Symbol.for('relay-portal.embedded-relay')

export type EmbeddedRelay = Awaited<ReturnType<typeof startRelay>>

export async function startEmbeddedRelay(config: RelayConfig): Promise<EmbeddedRelay> {
  const relay = await startRelay(config)
  // The portal is a trusted in-process caller: the address it forwards is the browser's.
  ;(globalThis as Record<symbol, unknown>)[embeddedRelayKey] = (request: Request) =>
    relay.fetch(request, { clientIp: request.headers.get('x-forwarded-for') ?? '127.0.0.1' })
  return relay
}
