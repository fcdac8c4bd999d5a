/** The privacy policy and the terms of service: one module, registered under both paths. */
import type { Route } from './+types/legal'
import { LegalDocument } from '#app/components/legal-document.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title },
  { name: 'description', content: loaderData?.description },
]

export function loader({ request, context }: Route.LoaderArgs) {
  const doc = new URL(request.url).pathname.startsWith('/terms') ? 'terms' : 'privacy'
  const { t } = getI18n(context)
  return {
    doc,
    title: t(`legal:${doc}.meta.title`),
    description: t(`legal:${doc}.meta.description`),
    legal: routeNamespace(context, 'legal'),
  } as const
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.legal)
  return <LegalDocument doc={loaderData.doc} />
}
