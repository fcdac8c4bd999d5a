/**
 * One module serves every signed-in screen a later milestone fills in (registered in routes.ts
 * under each screen's own id); each says what will be there.
 */
import type { Route } from './+types/placeholder'
import { ScreenPlaceholder, type PlaceholderScreen } from '#app/components/screen-placeholder.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'

const screens: Array<[RegExp, PlaceholderScreen]> = [
  [/^\/dashboard$/, 'dashboard'],
  [/^\/subscription$/, 'subscription'],
  [/^\/points$/, 'points'],
  [/^\/tickets$/, 'tickets'],
  [/^\/tickets\/create$/, 'ticketCreate'],
  [/^\/tickets\/[^/]+$/, 'ticketDetail'],
  [/^\/api-keys$/, 'apiKeys'],
  [/^\/referral$/, 'referral'],
  [/^\/profile$/, 'profile'],
]

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname.replace(/\/$/, '')
  const screen = screens.find(([pattern]) => pattern.test(path))?.[1] ?? 'dashboard'
  return { screen, title: getI18n(context).t(`placeholder.${screen}.title`) }
}

export default function Placeholder({ loaderData }: Route.ComponentProps) {
  return <ScreenPlaceholder screen={loaderData.screen} />
}
