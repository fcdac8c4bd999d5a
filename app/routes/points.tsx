/**
 * The points screen (docs/product.md "Points"): balance and usage progress, refill rate and times, frozen
 * points, the current package, the paged history, the model cost table and the points-reset
 * request (a ticket, handled within 1–3 working days, docs/product.md, Constants).
 */
import { Coins, History } from 'lucide-react'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, type RouterContextProvider } from 'react-router'
import type { Route } from './+types/points'
import { defaultWebSearchPoints, endpoints, type ModelCost, pageDefaults, type PointsHistory, pointsReasons, type PointsSummary, resetReasons } from '#relay/contract/index.ts'
import { FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { PagedNav } from '#app/components/points/paged-nav.tsx'
import { StatusBadge, statusKind } from '#app/components/subscription/status-badge.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { ProgressBar } from '#app/components/ui/progress-bar.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n, getLocale } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { resetRequestSchema } from '#app/schemas/points.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { formatShare, usageShare } from '#app/utils/usage-share.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const relay = getRelay(context)
  const [summary, history, costs] = await Promise.all([
    relay.call(endpoints.points.points),
    // docs/product.md, Messages "fetch points history failed": the list says so, the rest of the page stands.
    optionalRead(relay.call(endpoints.points.history, { query: { page: pageParam(request), pageSize: pageDefaults.pageSize } })),
    relay.call(endpoints.points.modelCosts),
  ])
  return { title: getI18n(context).t('points:title'), summary, history, costs: costs.items, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: resetRequestSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    const ticket = await getRelay(context).call(endpoints.points.resetTicket, { body: submission.value, ...formKeyOf(formData) })
    return redirectWithToast('/points', {
      type: 'success',
      key: ticket.auto_approved ? 'points:reset.approved' : 'points:reset.submitted',
      values: { number: ticket.ticket_number, points: formatNumber(context, ticket.points_added) },
    })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'points:reset.failed' })
  }
}

function formatNumber(context: Readonly<RouterContextProvider>, value: number): string {
  return numberFormat(getLocale(context)).format(value)
}

export default function Points({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('points')
  const { summary } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('subtitle')} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <UsageCard summary={summary} className="xl:col-span-2" />
        <PackageCard summary={summary} />
      </div>
      <HistoryCard history={loaderData.history} />
      <CostsCard costs={loaderData.costs} />
      <ResetCard lastResult={actionData?.result} formKey={loaderData.formKey} atLimit={summary.package !== null && summary.balance >= summary.points_limit} />
    </div>
  )
}

function UsageCard({ summary, className }: { summary: PointsSummary; className?: string }) {
  const { t } = useTranslation('points')
  const format = useNumberFormat()
  const hasPackage = summary.package !== null
  const { i18n } = useTranslation()
  const usage = usageShare(summary)
  const figures: Fact[] = [
    { testId: 'points-used', label: t('usage.used'), value: format(summary.used_points) },
    { testId: 'points-frozen', label: t('usage.frozen'), value: format(summary.frozen_points), hint: t('usage.frozenHint') },
    { testId: 'points-rate', label: t('usage.rate'), value: hasPackage ? t('usage.rateValue', { points: format(summary.hour_points) }) : t('usage.never') },
    {
      testId: 'points-last-refill',
      label: t('usage.lastRefill'),
      value: summary.last_refill_timestamp ? <LocalTime ms={summary.last_refill_timestamp} /> : t('usage.never'),
    },
    {
      testId: 'points-next-refill',
      label: t('usage.nextRefill'),
      value:
        summary.balance >= summary.points_limit && hasPackage ? (
          t('usage.full')
        ) : summary.next_refill_timestamp ? (
          <LocalTime ms={summary.next_refill_timestamp} />
        ) : (
          t('usage.never')
        ),
    },
  ]
  return (
    <Card id="usage" aria-labelledby="usage-title" className={cn('scroll-mt-20', className)} data-testid="points-usage">
      <CardTitle id="usage-title">{t('usage.title')}</CardTitle>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-2">
        <div>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('usage.balance')}</p>
          <p className="text-4xl font-bold tracking-tight tabular-nums" data-testid="points-balance">
            {format(summary.balance)}
          </p>
        </div>
        {hasPackage ? (
          <p className="text-sm text-zinc-500 tabular-nums dark:text-zinc-400">{t('usage.limit', { limit: format(summary.points_limit) })}</p>
        ) : null}
      </div>
      {hasPackage ? (
        <div className="mt-3 space-y-1.5">
          <ProgressBar value={usage.used} max={usage.total} label={t('usage.progressLabel')} />
          <p className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="points-progress">
            {t('usage.progress', { percent: formatShare(usage.share, i18n.language), used: format(usage.used), total: format(usage.total) })}
          </p>
        </div>
      ) : (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
          {t('usage.noPackage')}{' '}
          <Link to="/subscription" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            {t('usage.redeem')}
          </Link>
        </p>
      )}
      <Facts facts={figures} size="sm" className="mt-5 grid-cols-2 border-t border-zinc-100 pt-5 sm:grid-cols-3 lg:grid-cols-5 dark:border-zinc-800" />
    </Card>
  )
}

function PackageCard({ summary }: { summary: PointsSummary }) {
  const { t } = useTranslation(['points', 'subscription'])
  const pkg = summary.package
  return (
    <Card aria-labelledby="package-title" className="flex flex-col" data-testid="points-package">
      <CardTitle id="package-title">{t('package.title')}</CardTitle>
      {pkg ? (
        <div className="mt-4 flex-1 space-y-3">
          <p className="flex flex-wrap items-center gap-2 text-lg font-semibold">
            <span data-testid="points-package-name">{pkg.name}</span>
            <StatusBadge status={summary.status} />
          </p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`subscription:kind.${pkg.kind}`)}</p>
          {pkg.description ? <p className="text-sm text-zinc-500 dark:text-zinc-400">{pkg.description}</p> : null}
          {summary.end_timestamp ? (
            <dl className="text-sm">
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">{t('package.endsAt')}</dt>
              <dd className="mt-0.5 font-medium">
                <LocalTime ms={summary.end_timestamp} />
                {statusKind(summary.status) === 'normal' ? (
                  <span className="ml-2 text-zinc-500 dark:text-zinc-400">{t('package.daysLeft', { count: summary.remaining_days })}</span>
                ) : null}
              </dd>
            </dl>
          ) : null}
        </div>
      ) : (
        <p className="mt-4 flex-1 text-sm text-zinc-500 dark:text-zinc-400">{t('package.none')}</p>
      )}
      <Link to="/subscription" className="mt-4 text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
        {t('package.manage')}
      </Link>
    </Card>
  )
}

const typeTones: Record<string, BadgeTone> = {
  earned: 'green',
  refilled: 'sky',
  consumed: 'indigo',
  frozen: 'amber',
  unfrozen: 'sky',
  expired: 'zinc',
}

function HistoryCard({ history }: { history: PointsHistory | null }) {
  const { t } = useTranslation('points')
  const format = useNumberFormat()
  return (
    <Card id="history" aria-labelledby="history-title" className="scroll-mt-20" data-testid="points-history">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id="history-title">{t('history.title')}</CardTitle>
        <Link to="/usage" className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400" data-testid="points-call-log">
          {t('history.callLog')}
        </Link>
      </div>
      {history === null ? (
        <Notice tone="error" className="mt-4 flex flex-wrap items-center justify-between gap-3">
          {t('history.failed')}
          <a href="" className="font-medium underline">
            {t('history.retry')}
          </a>
        </Notice>
      ) : history.items.length === 0 ? (
        <EmptyState icon={History} title={t('history.empty')} className="mt-4" />
      ) : (
        <>
          <div className="mt-3">
            <Table
              columns={[
                { id: 'time', label: t('history.time') },
                { id: 'type', label: t('history.type') },
                { id: 'change', label: t('history.change'), align: 'end' },
                { id: 'model', label: t('history.model') },
                // The balance after each row is extra; a phone keeps the four columns of docs/product.md.
                { id: 'balance', label: t('history.balanceAfter'), align: 'end', className: 'hidden sm:table-cell' },
              ]}
            >
              {history.items.map((item) => {
                const known = Object.hasOwn(typeTones, item.type)
                return (
                  <tr key={item.id}>
                    <td className="py-2.5 pr-3 text-zinc-600 sm:whitespace-nowrap dark:text-zinc-400">
                      <LocalTime ms={item.create_timestamp} />
                    </td>
                    <td className="py-2.5 pr-3">
                      <Badge tone={typeTones[item.type] ?? 'zinc'}>{t(`history.types.${known ? item.type : 'unknown'}`)}</Badge>
                    </td>
                    <td
                      className={cn(
                        'py-2.5 pr-3 text-right font-semibold whitespace-nowrap tabular-nums',
                        item.change > 0 ? 'text-emerald-600 dark:text-emerald-400' : 'text-zinc-900 dark:text-zinc-100',
                      )}
                    >
                      {item.change > 0 ? '+' : ''}
                      {format(item.change)}
                    </td>
                    <td className="max-w-64 py-2.5 pr-3 break-all sm:break-normal">
                      {item.model ? <span className="font-mono text-xs">{item.model}</span> : null}
                      {item.call_id ? (
                        // A relayed call's rows read as this one line; the call's page lists them.
                        <Link
                          to={`/usage/${item.call_id}`}
                          className="mt-0.5 block text-xs font-medium whitespace-nowrap text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
                          data-testid="history-call"
                        >
                          {t('history.call')}
                        </Link>
                      ) : null}
                      {item.reason ? (
                        <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">
                          {/* The relay's own reasons are codes to translate; an operator's are their words. */}
                          {Object.hasOwn(pointsReasons, item.reason) ? t(`history.reasons.${item.reason as keyof typeof pointsReasons}`) : item.reason}
                        </span>
                      ) : null}
                    </td>
                    <td className="hidden py-2.5 text-right text-zinc-600 tabular-nums sm:table-cell dark:text-zinc-400">
                      {format(item.balance_after)}
                    </td>
                  </tr>
                )
              })}
            </Table>
          </div>
          <div className="mt-4">
            <PagedNav list={history} hash="#history" />
          </div>
        </>
      )}
    </Card>
  )
}

const rateIds = ['perCall', 'input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'webSearch'] as const
type RateId = (typeof rateIds)[number]

/** A cost's rate for one column; null where it has none (a fixed cost has only the per-call one). */
function rateOf(cost: ModelCost, id: RateId): number | null {
  switch (id) {
    case 'perCall':
      return cost.kind === 'fixed' ? cost.points_per_call : null
    case 'input':
      return cost.input_points_per_mtok
    case 'output':
      return cost.output_points_per_mtok
    case 'cacheRead':
      return cost.cache_read_points_per_mtok
    case 'cacheWrite':
      return cost.cache_write_points_per_mtok
    // What a usage-priced call pays when the row sets none: twice the input rate, 1 point a search (docs/pricing.md).
    case 'cacheWrite1h':
      return cost.kind === 'variable' ? (cost.cache_write_1h_points_per_mtok ?? (cost.input_points_per_mtok === null ? null : 2 * cost.input_points_per_mtok)) : null
    case 'webSearch':
      return cost.kind === 'variable' ? (cost.web_search_points ?? defaultWebSearchPoints) : null
  }
}

function CostsCard({ costs }: { costs: ModelCost[] }) {
  const { t } = useTranslation('points')
  const format = useNumberFormat()
  return (
    <Card aria-labelledby="costs-title" data-testid="model-costs">
      <CardTitle id="costs-title">{t('costs.title')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('costs.subtitle')}</p>
      {costs.length === 0 ? (
        <EmptyState icon={Coins} title={t('costs.empty')} className="mt-4" />
      ) : (
        <div className="mt-3">
          {/* A phone lists each model's rates in one cell; wider screens give every rate its column. */}
          <Table
            columns={[
              { id: 'model', label: t('costs.model') },
              { id: 'kind', label: t('costs.kind') },
              { id: 'rates', label: t('costs.rates'), className: 'sm:hidden' },
              ...rateIds.map((id) => ({ id, label: t(`costs.${id}`), align: 'end' as const, className: 'hidden sm:table-cell' })),
            ]}
          >
            {costs.map((cost) => {
              const rates = rateIds.map((id) => ({ id, value: rateOf(cost, id) }))
              return (
                <tr key={cost.model}>
                  <th scope="row" className="py-2.5 pr-3 text-left align-top font-normal">
                    <span className="font-mono text-xs font-medium break-all">{cost.model}</span>
                    {cost.description ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{cost.description}</span> : null}
                    {cost.long_context_threshold ? (
                      <span className="block text-xs text-amber-700 dark:text-amber-400">
                        {t('costs.longContext', {
                          tokens: format(cost.long_context_threshold),
                          input: format(cost.long_context_input_percent ?? 100),
                          output: format(cost.long_context_output_percent ?? 100),
                        })}
                      </span>
                    ) : null}
                  </th>
                  <td className="py-2.5 pr-3 align-top">
                    <Badge tone={cost.kind === 'fixed' ? 'indigo' : 'sky'}>{t(`costs.kinds.${cost.kind}`)}</Badge>
                  </td>
                  <td className="py-2.5 align-top text-xs tabular-nums sm:hidden">
                    {rates
                      .filter((rate) => rate.value !== null)
                      .map((rate) => (
                        <span key={rate.id} className="block whitespace-nowrap">
                          {t(`costs.${rate.id}`)} <span className="font-semibold">{format(rate.value!)}</span>
                        </span>
                      ))}
                  </td>
                  {rates.map((rate, index) => (
                    <td key={rate.id} className={cn('hidden py-2.5 text-right tabular-nums sm:table-cell', index < rates.length - 1 && 'pr-3')}>
                      {rate.value === null ? t('costs.none') : format(rate.value)}
                    </td>
                  ))}
                </tr>
              )
            })}
          </Table>
        </div>
      )}
      <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">{t('costs.note')}</p>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('costs.patterns')}</p>
    </Card>
  )
}

function ResetCard({ lastResult, formKey, atLimit }: { lastResult: SubmissionResult<string[]> | undefined; formKey: string; atLimit: boolean }) {
  const { t } = useTranslation('points')
  const [form, fields] = useZodForm(resetRequestSchema, { id: 'reset', lastResult })
  return (
    <Card aria-labelledby="reset-title" data-testid="reset-request" className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div>
        <CardTitle id="reset-title">{t('reset.title')}</CardTitle>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('reset.subtitle')}</p>
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('reset.promise')}</p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormKey value={formKey} />
        {/* A reset tops the balance up to the limit: at or above it, the relay refuses (nothing to add). */}
        {atLimit ? (
          <Notice tone="info" data-testid="reset-at-limit">
            {t('reset.atLimit')}
          </Notice>
        ) : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField
          meta={fields.reason}
          label={t('reset.reason')}
          placeholder={t('reset.choose')}
          options={resetReasons.map((reason) => ({ value: reason, label: t(`reset.reasons.${reason}`) }))}
        />
        <TextareaField meta={fields.description} label={t('reset.description')} hint={t('reset.descriptionHint')} rows={4} />
        <SubmitButton className="w-full sm:w-auto">{t('reset.submit')}</SubmitButton>
      </Form>
    </Card>
  )
}
