/**
 * The landing page. Pure server-rendered markup: no images, no web fonts, inline SVG icons only,
 * so it is complete and fast on a slow network with JavaScript off. Also rendered for every
 * unmatched path (app/routes.ts). Each section is a file of this folder.
 */
import type { Route } from './+types/route'
import { Audiences } from './audiences.tsx'
import { Features } from './features.tsx'
import { FinalCta } from './final-cta.tsx'
import { Hero } from './hero.tsx'
import { Stats } from './stats.tsx'
import { Steps } from './steps.tsx'
import { Trust } from './trust.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { endpoints } from '#relay/contract/index.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { apiBaseUrl } from '#server/env.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title },
  { name: 'description', content: loaderData?.description },
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  return {
    // Without the relay the page still shows, with targets in place of figures.
    figures: await optionalRead(getRelay(context).call(endpoints.public.figures)),
    title: t('marketing:meta.title'),
    description: t('marketing:meta.description'),
    // Shown in the terminal example: the address Claude Code is pointed at.
    baseUrl: apiBaseUrl(request),
    marketing: routeNamespace(context, 'marketing'),
  }
}

export default function Home({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.marketing)
  return (
    <main>
      <Hero baseUrl={loaderData.baseUrl} saving={loaderData.figures?.savings_percent ?? null} />
      <Stats figures={loaderData.figures} />
      <Audiences saving={loaderData.figures?.savings_percent ?? null} />
      <Trust />
      <Features />
      <Steps />
      <FinalCta />
    </main>
  )
}
