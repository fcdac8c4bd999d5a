/**
 * The referral programme (docs/product.md): stats, the invitation link with copy, the configured reward
 * rule, and the paged reward history. Everything is a GET: page links and refresh work without
 * JavaScript.
 */
import { RefreshCw, UserPlus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigation } from 'react-router'
import type { Route } from './+types/referral'
import { endpoints, type ReferralRecord, type ReferralRecords, type ReferralStats } from '#relay/contract/index.ts'
import { CopyField } from '#app/components/copy-button.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { RewardRule } from '#app/components/referral/reward-rule.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Pagination } from '#app/components/ui/pagination.tsx'
import { Stat } from '#app/components/ui/stat.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { publicUrl } from '#server/env.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const relay = getRelay(context)
  const [stats, records] = await Promise.all([
    relay.call(endpoints.referral.stats),
    relay.call(endpoints.referral.records, { query: { page: pageParam(request) } }),
  ])
  return {
    title: getI18n(context).t('referral:title'),
    stats,
    records,
    inviteUrl: `${publicUrl(request)}/auth/register?invite=${encodeURIComponent(stats.invite_code)}`,
  }
}

export default function Referral({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('referral')
  const { stats, records, inviteUrl } = loaderData
  const location = useLocation()
  const navigation = useNavigation()
  const refreshing = navigation.state === 'loading' && navigation.location.pathname === location.pathname
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('subtitle')}
        actions={
          // A link to this very page: the loaders run again, with or without JavaScript.
          <Link to={location.pathname + location.search} className={buttonClass({ variant: 'secondary' })} aria-busy={refreshing || undefined} data-testid="refresh">
            <RefreshCw className={refreshing ? 'size-4 animate-spin' : 'size-4'} />
            {t('refresh')}
          </Link>
        }
      />
      <Stats stats={stats} />
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <Card aria-labelledby="link-title" className="space-y-4">
          <CardTitle id="link-title">{t('link.title')}</CardTitle>
          <CopyField id="invite-link" label={t('link.label')} value={inviteUrl} copyText={t('link.copy')} copiedKey="referral:link.copied" />
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {t('link.code')}{' '}
            <span className="ml-1 rounded-md bg-zinc-100 px-2 py-0.5 font-mono text-sm font-semibold text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100" data-testid="invite-code">
              {stats.invite_code}
            </span>
          </p>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('link.hint')}</p>
        </Card>
        <Card aria-labelledby="rule-title" className="space-y-3">
          <CardTitle id="rule-title">{t('rule.title')}</CardTitle>
          <RewardRule rule={stats.rule} />
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('rule.note')}</p>
        </Card>
      </div>
      <Records records={records} />
    </div>
  )
}

function Stats({ stats }: { stats: ReferralStats }) {
  const { t } = useTranslation('referral')
  const format = useNumberFormat()
  return (
    <dl aria-label={t('stats.label')} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <Stat testId="stat-total" label={t('stats.total')} value={format(stats.total_invites)} detail={t('stats.totalHint')} />
      <Stat testId="stat-valid" label={t('stats.valid')} value={format(stats.valid_invites)} detail={t('stats.validHint')} />
      <Stat testId="stat-days" label={t('stats.days')} value={t('stats.daysValue', { count: stats.cumulative_reward_days })} />
      <Stat testId="stat-points" label={t('stats.points')} value={format(stats.cumulative_reward_points)} />
    </dl>
  )
}

function Records({ records }: { records: ReferralRecords }) {
  const { t } = useTranslation('referral')
  return (
    <Card aria-labelledby="records-title" id="records" className="space-y-4">
      <CardTitle id="records-title">{t('records.title')}</CardTitle>
      {records.total === 0 ? (
        <EmptyState
          icon={UserPlus}
          title={t('records.emptyTitle')}
          body={t('records.emptyBody')}
          testId="records-empty"
        />
      ) : (
        <>
          <Table
            phone="stack"
            caption={t('records.caption')}
            testId="records-table"
            columns={[
              { id: 'username', label: t('records.username') },
              { id: 'created', label: t('records.created') },
              { id: 'days', label: t('records.days'), align: 'end' },
              { id: 'points', label: t('records.points'), align: 'end' },
              { id: 'status', label: t('records.status') },
            ]}
          >
            {records.items.map((record) => (
              <RecordRow key={record.id} record={record} />
            ))}
          </Table>
          <Pagination
            page={records.page}
            pageSize={records.pageSize}
            total={records.total}
            hash="#records"
            labels={{
              nav: t('pager.nav'),
              previous: t('pager.previous'),
              next: t('pager.next'),
              summary: (pages) => t('pager.summary', { page: records.page, pages, total: records.total }),
            }}
          />
        </>
      )}
    </Card>
  )
}

/** A table row on desktop; on phones a small grid: name and status, then each figure with its label. */
function RecordRow({ record }: { record: ReferralRecord }) {
  const { t } = useTranslation('referral')
  const format = useNumberFormat()
  // An unknown status from a newer relay reads as pending rather than breaking the row.
  const rewarded = record.status === 'rewarded'
  const figure = 'col-span-2 flex justify-between gap-3 text-zinc-600 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400'
  const phoneLabel = 'text-xs text-zinc-500 md:hidden dark:text-zinc-400'
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="record-row">
      <td className="font-mono text-zinc-900 md:py-3 md:pr-3 dark:text-zinc-100">{record.username}</td>
      <td className={`${figure} whitespace-nowrap`}>
        <span className={phoneLabel}>{t('records.created')}</span>
        <LocalTime ms={record.create_timestamp} dateOnly />
      </td>
      <td className={`${figure} text-zinc-900 tabular-nums md:text-right dark:text-zinc-100`}>
        <span className={phoneLabel}>{t('records.days')}</span>
        {format(record.reward_days)}
      </td>
      <td className={`${figure} text-zinc-900 tabular-nums md:text-right dark:text-zinc-100`}>
        <span className={phoneLabel}>{t('records.points')}</span>
        {format(record.reward_points)}
      </td>
      <td className="col-start-2 row-start-1 md:py-3">
        <Badge tone={rewarded ? 'green' : 'amber'}>{t(rewarded ? 'records.statuses.rewarded' : 'records.statuses.pending')}</Badge>
      </td>
    </tr>
  )
}
