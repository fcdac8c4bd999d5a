/**
 * The usage log (docs/decisions/111-bounded-history-reads.md): one row per metered call — time, key, model, tokens, points,
 * duration and time to first byte, outcome, request id — filtered by a GET form (works without
 * JavaScript; the filters live in the URL, so a filtered view can be bookmarked), paged newest
 * first by the relay's keyset cursor, and exported as CSV by /usage/export.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Download, ScrollText } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { Route } from './+types/usage'
import { callOutcomes, endpoints, usageCursorPattern, type UsageCall } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { CallOutcome } from '#app/components/usage/call-outcome.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { filtersSearch, usageFiltersSchema, usageQuery, type UsageFilters } from '#app/schemas/usage.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const submission = parseWithZod(url.searchParams, { schema: usageFiltersSchema })
  // Filters that do not parse filter nothing; the form shows why.
  const filters: UsageFilters = submission.status === 'success' ? submission.value : {}
  const cursor = url.searchParams.get('cursor')
  const relay = getRelay(context)
  const [calls, keys] = await Promise.all([
    relay.call(endpoints.usage.calls, { query: { ...usageQuery(filters), cursor: cursor && usageCursorPattern.test(cursor) ? cursor : undefined } }),
    relay.call(endpoints.apiKeys.list),
  ])
  return {
    title: getI18n(context).t('usage:title'),
    calls,
    keys: keys.items.map((key) => ({ id: key.id, name: key.name })),
    filters,
    // Only a refused filter comes back as a reply: the form then shows the typed values and why.
    result: submission.status === 'error' ? submission.reply() : undefined,
    paged: cursor !== null,
  }
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('usage')
  const { calls, filters } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('subtitle')}
        actions={
          // A plain link: the export streams from the relay as a download, with or without JavaScript.
          <a href={`/usage/export${filtersSearch(filters)}`} download className={buttonClass({ variant: 'secondary' })} data-testid="usage-export">
            <Download className="size-4" aria-hidden />
            {t('export')}
          </a>
        }
      />
      <Filters keys={loaderData.keys} filters={filters} result={loaderData.result} />
      <Card aria-labelledby="calls-title">
        <h2 id="calls-title" className="sr-only">
          {t('calls.title')}
        </h2>
        {calls.items.length === 0 ? (
          <EmptyState icon={ScrollText} title={t('calls.empty')} body={t('calls.emptyBody')} testId="usage-empty" />
        ) : (
          <CallTable calls={calls.items} />
        )}
        <nav aria-label={t('pager.nav')} className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-zinc-100 pt-4 dark:border-zinc-800">
          {loaderData.paged ? (
            <Link to={`/usage${filtersSearch(filters)}`} className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
              {t('pager.newest')}
            </Link>
          ) : (
            <span className="text-sm text-zinc-500 dark:text-zinc-400">{t('pager.newestShown')}</span>
          )}
          {calls.next_cursor ? (
            <Link
              to={`/usage${filtersSearch(filters, { cursor: calls.next_cursor })}`}
              className={buttonClass({ variant: 'secondary', size: 'sm' })}
              data-testid="usage-older"
            >
              {t('pager.older')}
            </Link>
          ) : null}
        </nav>
      </Card>
    </div>
  )
}

function Filters({ keys, filters, result }: { keys: Array<{ id: string; name: string }>; filters: UsageFilters; result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('usage')
  const [form, fields] = useZodForm(usageFiltersSchema, { id: 'usage-filters', lastResult: result, defaultValue: filters })
  return (
    <Card aria-labelledby="filters-title">
      <h2 id="filters-title" className="sr-only">
        {t('filters.title')}
      </h2>
      <Form method="get" {...getFormProps(form)} className="space-y-4" data-testid="usage-filters">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <SelectField meta={fields.key} label={t('filters.key')} placeholder={t('filters.anyKey')} options={keys.map((key) => ({ value: key.id, label: key.name }))} />
          <Field meta={fields.model} label={t('filters.model')} placeholder={t('filters.anyModel')} autoComplete="off" />
          <SelectField
            meta={fields.outcome}
            label={t('filters.outcome')}
            placeholder={t('filters.anyOutcome')}
            options={callOutcomes.map((outcome) => ({ value: outcome, label: t(`outcome.${outcome}`) }))}
          />
          <Field meta={fields.from} type="date" label={t('filters.from')} />
          <Field meta={fields.to} type="date" label={t('filters.to')} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('filters.hint')}</p>
          <div className="flex gap-2">
            <Link to="/usage" className={buttonClass({ variant: 'ghost' })}>
              {t('filters.clear')}
            </Link>
            <SubmitButton>{t('filters.apply')}</SubmitButton>
          </div>
        </div>
      </Form>
    </Card>
  )
}

/** A table on desktop; on phones each call is a card whose cells name themselves. */
function CallTable({ calls }: { calls: UsageCall[] }) {
  const { t } = useTranslation('usage')
  const number = useNumberFormat()
  // The page's column is about 930 px wide whatever the screen: names, reasons and token counts
  // wrap rather than push the table past it; figures and times stay on one line each.
  const cell = 'flex items-baseline justify-between gap-3 py-0.5 md:table-cell md:py-2.5 md:pr-3'
  const oneLine = `${cell} md:whitespace-nowrap`
  const end = `${cell} md:text-right`
  const phoneLabel = 'text-xs text-zinc-500 md:hidden dark:text-zinc-400'
  const columns = [
    // The request id sits under the time, as a link to the call's page, instead of a column of its own.
    {
      id: 'time',
      label: (
        <>
          {t('calls.time')}
          <span className="block">{t('calls.requestId')}</span>
        </>
      ),
    },
    { id: 'key', label: t('calls.key') },
    { id: 'model', label: t('calls.model') },
    { id: 'outcome', label: t('calls.outcome') },
    { id: 'tokens', label: t('calls.tokens'), align: 'end' as const },
    { id: 'points', label: t('calls.points'), align: 'end' as const },
    { id: 'timing', label: t('calls.timing'), align: 'end' as const },
  ]
  const label = (id: string) => <span className={phoneLabel}>{columns.find((column) => column.id === id)!.label}</span>
  return (
    <Table phone="stack" caption={t('calls.title')} testId="usage-table" columns={columns}>
      {calls.map((call) => (
        <tr key={call.id} id={`call-${call.id}`} data-testid="usage-row" className="block py-3 target:bg-indigo-50 md:table-row md:py-0 dark:target:bg-indigo-950/40">
          <td className={`${oneLine} text-zinc-600 dark:text-zinc-400`}>
            {label('time')}
            <span className="text-right md:text-left">
              <LocalTime ms={call.create_timestamp} />
              {/* The call's own page: its reason, timing, charge and points rows. */}
              <Link
                to={`/usage/${call.id}`}
                className="block font-mono text-[11px] text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
                data-testid="usage-call-link"
              >
                {call.id}
              </Link>
            </span>
          </td>
          <td className={`${oneLine} font-medium text-zinc-900 dark:text-zinc-100`}>
            {label('key')}
            <span className="truncate md:inline-block md:max-w-36 md:align-bottom" title={call.key_name ?? undefined}>
              {call.key_name ?? (call.client_id ? t('calls.client', { client: call.client_id }) : '—')}
            </span>
          </td>
          <td className={`${cell} md:min-w-36`}>
            {label('model')}
            <span className="font-mono text-xs break-all">{call.model}</span>
            <span className="block text-[11px] text-zinc-500 dark:text-zinc-400">{t(`apis.${call.api}`)}</span>
          </td>
          <td className={`${cell} md:min-w-32`}>
            {label('outcome')}
            <CallOutcome call={call} />
          </td>
          <td className={`${end} text-xs text-zinc-600 tabular-nums dark:text-zinc-400`}>
            {label('tokens')}
            <span className="text-right md:whitespace-nowrap">
              <span className="block">{t('calls.inOut', { input: number(call.input_tokens), output: number(call.output_tokens) })}</span>
              {call.cache_read_tokens ? <span className="block">{t('calls.cacheRead', { tokens: number(call.cache_read_tokens) })}</span> : null}
              {call.cache_write_tokens ? <span className="block">{t('calls.cacheWrite', { tokens: number(call.cache_write_tokens) })}</span> : null}
            </span>
          </td>
          <td className={`${end} font-semibold tabular-nums md:whitespace-nowrap`}>
            {label('points')}
            <span className="text-right">
              {number(call.points)}
              {call.shortfall_points > 0 ? (
                <span className="block text-xs font-normal text-amber-700 dark:text-amber-300">{t('calls.shortfall', { points: number(call.shortfall_points) })}</span>
              ) : null}
            </span>
          </td>
          <td className={`${end} text-xs text-zinc-600 tabular-nums md:whitespace-nowrap dark:text-zinc-400`}>
            {label('timing')}
            <span className="text-right">
              <span className="block">{t('calls.duration', { ms: number(call.duration_ms) })}</span>
              {call.first_byte_ms !== null ? <span className="block">{t('calls.firstByte', { ms: number(call.first_byte_ms) })}</span> : null}
            </span>
          </td>
        </tr>
      ))}
    </Table>
  )
}
