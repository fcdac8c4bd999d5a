/**
 * The route id that answers a portal path, for metrics and traces: bounded by the route table,
 * where raw paths are not (every user's ticket has its own).
 */
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

/** The route tree of a build, as matchRoutes reads it (ids only). */
function routeTree(build: Pick<ServerBuild, 'routes'>): RouteObject[] {
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

/** `routeOf(path)`: the deepest route answering it; a data request (`/points.data`) counts as its page. */
export function routeIds(build: Pick<ServerBuild, 'routes'>): (path: string) => string {
  const tree = routeTree(build)
  return (path) => {
    const page = path === '/_root.data' ? '/' : path.replace(/\.data$/, '')
    return matchRoutes(tree, page)?.at(-1)?.route.id ?? 'unmatched'
  }
}
