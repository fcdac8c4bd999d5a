/**
 * One call for an operator (docs/console.md, "Calls"): what its owner's page shows of it, and who
 * made it, from which address, which provider answered under which model name, the relay's own
 * share of the time, and the points rows it wrote.
 */
import { UserRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Link } from 'react-router'
import type { Route } from './+types/call'
import { endpoints, isId } from '#relay/contract/index.ts'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { CallEntries } from '#app/components/usage/call-entries.tsx'
import { useCallFacts } from '#app/components/usage/call-facts.tsx'
import { ChargeLines } from '#app/components/usage/charge-lines.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  if (!isId(params.id)) throw data(t('admin:calls.detail.notFound'), { status: 404 })
  try {
    const detail = await getRelay(context).call(endpoints.admin.call, { params: { id: params.id } })
    return { title: t('admin:calls.detail.title', { id: params.id }), detail }
  } catch (error) {
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) throw data(t('admin:calls.detail.notFound'), { status: 404 })
    throw error
  }
}

export default function AdminCallPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { t: tu } = useTranslation('usage')
  const number = useNumberFormat()
  const { call, entries } = loaderData.detail
  const ms = (value: number | null) => (value === null ? '—' : tu('calls.duration', { ms: number(value) }))
  const userPage = `/admin/users/${call.user_id}`
  const facts: Fact[] = [
    {
      label: t('calls.user'),
      value: (
        <Link to={userPage} className="break-all text-indigo-600 hover:text-indigo-500 dark:text-indigo-400" data-testid="call-user">
          {call.username}
        </Link>
      ),
    },
    ...useCallFacts(call, { noModel: t('calls.noModel') }),
    { label: t('calls.detail.clientIp'), value: <span className="font-mono text-sm break-all">{call.client_ip}</span> },
    { label: t('calls.requestId'), value: <span className="font-mono text-sm break-all">{call.id}</span> },
  ]
  const timing: Fact[] = [
    { label: t('calls.detail.total'), value: ms(call.duration_ms), testId: 'call-total' },
    { label: t('calls.detail.relay'), value: ms(call.relay_ms), testId: 'call-relay-ms' },
    { label: t('calls.detail.firstByte'), value: ms(call.first_byte_ms) },
  ]
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('calls.detail.subtitle')}
        above={<BackLink to="/admin/calls">{t('calls.detail.back')}</BackLink>}
        actions={
          <Link to={userPage} className={buttonClass({ variant: 'secondary' })}>
            <UserRound className="size-4" aria-hidden />
            {t('calls.detail.userLink')}
          </Link>
        }
      />
      <Card aria-labelledby="call-title" data-testid="admin-call">
        <CardTitle id="call-title">{t('calls.detail.facts')}</CardTitle>
        <Facts facts={facts} size="sm" className="mt-4 grid-cols-2 sm:grid-cols-3 lg:grid-cols-4" />
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card aria-labelledby="provider-title" data-testid="call-provider">
          <CardTitle id="provider-title">{t('calls.detail.attempts')}</CardTitle>
          {call.provider_id === null ? (
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('calls.detail.noProvider')}</p>
          ) : (
            <>
              <Facts
                facts={[
                  { label: t('calls.provider'), value: <span className="break-words">{call.provider ?? call.provider_id}</span> },
                  { label: t('calls.detail.upstreamModel'), value: <span className="font-mono text-sm break-all">{call.upstream_model ?? call.model}</span> },
                ]}
                size="sm"
                className="mt-4 grid-cols-1"
              />
              <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">{t('calls.detail.attemptsHint')}</p>
            </>
          )}
        </Card>
        <Card aria-labelledby="timing-title">
          <CardTitle id="timing-title">{t('calls.detail.timing')}</CardTitle>
          <Facts facts={timing} size="sm" className="mt-4 grid-cols-3" />
        </Card>
      </div>
      <ChargeLines charge={call.charge} />
      <CallEntries entries={entries} />
    </div>
  )
}
