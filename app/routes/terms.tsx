import type { Route } from './+types/terms'
import { LegalDocument } from '#app/components/legal-document.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title },
  { name: 'description', content: loaderData?.description },
]

export function loader({ context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  return {
    title: t('legal:terms.meta.title'),
    description: t('legal:terms.meta.description'),
    legal: routeNamespace(context, 'legal'),
  }
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.legal)
  return <LegalDocument doc="terms" />
}
