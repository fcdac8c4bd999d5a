/**
 * Long copy that only one page reads (the landing page, the legal documents, the operator
 * console's, which no other user should download) stays out of the
 * per-language bundle every page downloads: the page's loader sends its namespace along with the
 * data, and the page registers it before its components translate. See
 * docs/decisions/006-texts-and-languages.md.
 */
import { useTranslation } from 'react-i18next'

export const routeNamespaces = ['marketing', 'legal', 'public', 'admin', 'apidocs'] as const
export type RouteNamespace = (typeof routeNamespaces)[number]

export interface RouteNamespaceBundle {
  ns: RouteNamespace
  lng: string
  resources: Record<string, unknown>
}

export function useRouteNamespace(bundle: RouteNamespaceBundle) {
  const { i18n } = useTranslation()
  // Idempotent, and needed before the first render of the children in the browser.
  if (!i18n.hasResourceBundle(bundle.lng, bundle.ns)) {
    i18n.addResourceBundle(bundle.lng, bundle.ns, bundle.resources, true, true)
  }
}
