/**
 * The usage log (docs/decisions/111-bounded-history-reads.md): one row per metered call — time, key, model, tokens, points,
 * duration and time to first byte, outcome, request id — filtered by a GET form (works without
 * JavaScript; the filters live in the URL, so a filtered view can be bookmarked), paged newest
 * first by the relay's keyset cursor, and exported as CSV by /usage/export.
 */
import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Download, ScrollText } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { Route } from './+types/usage'
import { callOutcomes, endpoints, usageCursorPattern } from '#relay/contract/index.ts'
import { Field } from '#app/components/forms/field.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { CallFilters } from '#app/components/usage/call-filters.tsx'
import { CallTable } from '#app/components/usage/call-table.tsx'
import { KeysetPager } from '#app/components/usage/keyset-pager.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { filtersSearch, usageFiltersSchema, usageQuery, type UsageFilters } from '#app/schemas/usage.ts'

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
          <CallTable
            calls={calls.items}
            columns={['when', 'key', 'model', 'outcome', 'tokens', 'points', 'timing']}
            href={(call) => `/usage/${call.id}`}
            testId="usage"
          />
        )}
        <KeysetPager
          newest={loaderData.paged ? `/usage${filtersSearch(filters)}` : null}
          older={calls.next_cursor ? `/usage${filtersSearch(filters, { cursor: calls.next_cursor })}` : null}
          labels={{ nav: t('pager.nav'), newest: t('pager.newest'), newestShown: t('pager.newestShown'), older: t('pager.older') }}
          testId="usage-older"
        />
      </Card>
    </div>
  )
}

function Filters({ keys, filters, result }: { keys: Array<{ id: string; name: string }>; filters: UsageFilters; result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('usage')
  const [form, fields] = useZodForm(usageFiltersSchema, { id: 'usage-filters', lastResult: result, defaultValue: filters })
  return (
    <CallFilters
      form={form}
      title={t('filters.title')}
      hint={t('filters.hint')}
      clear={{ to: '/usage', label: t('filters.clear') }}
      apply={t('filters.apply')}
      testId="usage-filters"
      className="sm:grid-cols-2 lg:grid-cols-5"
    >
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
    </CallFilters>
  )
}
