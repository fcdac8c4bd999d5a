/**
 * One call (docs/decisions/111-bounded-history-reads.md): what the usage log records of it, and the points rows it wrote —
 * the frozen, unfrozen and consumed rows the points history shows as one line linking here.
 */
import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import type { Route } from './+types/usage-call'
import { endpoints, isId } from '#relay/contract/index.ts'
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
  if (!isId(params.id)) throw data(t('usage:detail.notFound'), { status: 404 })
  try {
    const detail = await getRelay(context).call(endpoints.usage.call, { params: { id: params.id } })
    return { title: t('usage:detail.title'), detail }
  } catch (error) {
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) throw data(t('usage:detail.notFound'), { status: 404 })
    throw error
  }
}

export default function UsageCallPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('usage')
  const number = useNumberFormat()
  const { call, entries } = loaderData.detail
  const facts: Fact[] = [
    ...useCallFacts(call),
    {
      label: t('calls.timing'),
      value: `${t('calls.duration', { ms: number(call.duration_ms) })}${call.first_byte_ms === null ? '' : ` · ${t('calls.firstByte', { ms: number(call.first_byte_ms) })}`}`,
    },
    { label: t('calls.requestId'), value: <span className="font-mono text-sm break-all">{call.id}</span> },
  ]
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('detail.subtitle')}
        above={<BackLink to="/usage">{t('detail.back')}</BackLink>}
      />
      <Card aria-labelledby="call-title">
        <CardTitle id="call-title">{t('detail.facts')}</CardTitle>
        <Facts facts={facts} size="sm" className="mt-4 grid-cols-2 sm:grid-cols-3 lg:grid-cols-4" />
      </Card>
      <ChargeLines charge={call.charge} />
      <CallEntries entries={entries} />
    </div>
  )
}
