/**
 * The portal's Prometheus families (docs/observability.md): its requests by route id, never by
 * raw path (server/route-ids.ts).
 */
import { Counter, Histogram, type Registry } from 'prom-client'

export class PortalMetrics {
  readonly #requests: Counter<'route' | 'method' | 'status'>
  readonly #duration: Histogram<'route'>

  constructor(registry: Registry) {
    const registers = [registry]
    this.#requests = new Counter({ name: 'portal_requests_total', help: 'Portal pages and form posts answered, by route id.', labelNames: ['route', 'method', 'status'], registers })
    this.#duration = new Histogram({
      name: 'portal_request_duration_seconds',
      help: 'From a portal request arriving to its answer being ready.',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    })
  }

  observe(route: string, method: string, status: number, ms: number): void {
    this.#requests.inc({ route, method, status: String(status) })
    this.#duration.observe({ route }, ms / 1000)
  }
}
