import type { Route } from './+types/privacy'
import { LegalDocument } from '#app/components/legal-document.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title },
  { name: 'description', content: loaderData?.description },
]

export function loader({ context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  return {
    title: t('legal:privacy.meta.title'),
    description: t('legal:privacy.meta.description'),
  }
}

export default function Privacy() {
  return <LegalDocument doc="privacy" />
}
