/** Liveness for the container HEALTHCHECK and load balancers: the portal answers and can reach its relay. */
import type { Route } from './+types/health'
import { endpoints } from '#relay/contract/index.ts'
import { createRelayClient } from '#app/utils/relay-client.server.ts'
import { relayTarget } from '#app/utils/relay-transport.server.ts'

export async function loader({ request }: Route.LoaderArgs) {
  const relay = createRelayClient({ ...relayTarget(), signal: AbortSignal.any([request.signal, AbortSignal.timeout(5000)]) })
  try {
    await relay.call(endpoints.health.health)
    return Response.json({ status: 'ok', relay: true }, { headers: { 'Cache-Control': 'no-store' } })
  } catch {
    return Response.json({ status: 'degraded', relay: false }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
}
