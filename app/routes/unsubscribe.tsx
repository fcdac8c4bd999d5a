/**
 * The unsubscribe link of every notification mail (docs/decisions/125-mail-and-announcements.md): no sign-in, the signed
 * token in the link is the authority. Opening it only shows what it would turn off (mail scanners
 * open links); the button's POST turns it off.
 */
import { MailX } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/unsubscribe'
import { endpoints, unsubscribeQuery } from '#relay/contract/index.ts'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }, { name: 'robots', content: 'noindex' }]

/** The link's answer, or null for a link that is not ours; an outage is thrown as the error page. */
async function target(read: () => Promise<{ kind: string; email: string; enabled: boolean }>) {
  try {
    return await read()
  } catch (error) {
    if (error instanceof RelayCallError) return null
    throw error
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = unsubscribeQuery.safeParse({ token: new URL(request.url).searchParams.get('token') ?? '' })
  const info = query.success ? await target(() => getRelay(context).call(endpoints.notifications.unsubscribeInfo, { query: query.data })) : null
  return { title: getI18n(context).t('notifications:unsubscribe.title'), token: query.success ? query.data.token : '', info }
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = unsubscribeQuery.safeParse({ token: (await request.formData()).get('token') })
  const done = body.success ? await target(() => getRelay(context).call(endpoints.notifications.unsubscribe, { body: body.data })) : null
  return data({ done }, { status: done ? 200 : 404 })
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications')
  const done = actionData?.done
  const info = done ?? loaderData.info
  const values = info ? { kind: t(`kinds.${info.kind as 'ticket_reply'}`), email: info.email } : {}
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12 sm:py-20">
      <Card className="space-y-5" data-testid="unsubscribe">
        <div className="flex items-center gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-full bg-indigo-50 text-indigo-600 dark:bg-indigo-950/60 dark:text-indigo-300">
            <MailX className="size-5" />
          </span>
          <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">{loaderData.title}</h1>
        </div>
        {!info || actionData?.done === null ? (
          <Notice tone="error">{t('unsubscribe.invalid')}</Notice>
        ) : done ? (
          <Notice tone="success">{t('unsubscribe.off', values)}</Notice>
        ) : info.enabled ? (
          <Form method="post" className="space-y-4">
            <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('unsubscribe.confirm', values)}</p>
            <input type="hidden" name="token" value={loaderData.token} />
            <SubmitButton className="w-full sm:w-auto">{t('unsubscribe.submit')}</SubmitButton>
          </Form>
        ) : (
          <Notice tone="info">{t('unsubscribe.alreadyOff', values)}</Notice>
        )}
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          <Link to="/profile/notifications" className="font-medium text-indigo-600 dark:text-indigo-400">
            {t('link')}
          </Link>{' '}
          · {t('unsubscribe.manage')}
        </p>
      </Card>
    </div>
  )
}
