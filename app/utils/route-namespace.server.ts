import type { RouterContextProvider } from 'react-router'
import { getI18n } from '#app/middleware/i18n.server.ts'
import type { RouteNamespace, RouteNamespaceBundle } from './route-namespace.ts'

/** The page's own namespace, for its loader to hand to `useRouteNamespace`. */
export function routeNamespace(context: Readonly<RouterContextProvider>, ns: RouteNamespace): RouteNamespaceBundle {
  const i18n = getI18n(context)
  return { ns, lng: i18n.language, resources: i18n.getResourceBundle(i18n.language, ns) as Record<string, unknown> }
}
