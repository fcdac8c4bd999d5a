/** Liveness for the container HEALTHCHECK and load balancers: the portal answers and can reach its relay. */
import type { Route } from './+types/health'
import { relayTarget } from '#app/utils/relay-transport.server.ts'

export async function loader({ request }: Route.LoaderArgs) {
  const { transport, baseUrl } = relayTarget()
  try {
    const response = await transport(
      new Request(new URL('/api/health', baseUrl), { signal: AbortSignal.any([request.signal, AbortSignal.timeout(5000)]) }),
    )
    const ok = response.ok
    return Response.json({ status: ok ? 'ok' : 'degraded', relay: ok }, { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
  } catch {
    return Response.json({ status: 'degraded', relay: false }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
}
