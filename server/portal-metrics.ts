/**
 * The portal's Prometheus families (docs/observability.md): its requests by route id — the
 * route module that answered, bounded by the route table — never by raw path.
 */
import { Counter, Histogram, type Registry } from 'prom-client'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

/** The route tree of a build, as matchRoutes reads it (ids only). */
function routeTree(build: ServerBuild): RouteObject[] {
  const nodes = new Map<string, RouteObject & { children: RouteObject[] }>()
  for (const route of Object.values(build.routes)) {
    if (route) nodes.set(route.id, { id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: [] } as RouteObject & { children: RouteObject[] })
  }
  const roots: RouteObject[] = []
  for (const route of Object.values(build.routes)) {
    if (!route) continue
    const node = nodes.get(route.id)!
    const parent = route.parentId ? nodes.get(route.parentId) : undefined
    if (parent) parent.children.push(node)
    else roots.push(node)
  }
  return roots
}

export class PortalMetrics {
  readonly #tree: RouteObject[]
  readonly #requests: Counter<'route' | 'method' | 'status'>
  readonly #duration: Histogram<'route'>

  constructor(registry: Registry, build: ServerBuild) {
    this.#tree = routeTree(build)
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

  /** The deepest route that answers `path`; a data request (`/points.data`) counts as its page. */
  routeOf(path: string): string {
    const page = path === '/_root.data' ? '/' : path.replace(/\.data$/, '')
    return matchRoutes(this.#tree, page)?.at(-1)?.route.id ?? 'unmatched'
  }

  observe(path: string, method: string, status: number, ms: number): void {
    const route = this.routeOf(path)
    this.#requests.inc({ route, method, status: String(status) })
    this.#duration.observe({ route }, ms / 1000)
  }
}
