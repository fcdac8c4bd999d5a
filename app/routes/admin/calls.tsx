/**
 * The operators' call log (docs/console.md, "Calls"): every user's calls newest first, the relay's
 * own refusals included, filtered by a GET form (works without JavaScript; the URL is the filter)
 * by user, key, model, provider, outcome, UTC+8 days and the request id a user quotes; paged by
 * the relay's keyset cursor; the same filters as a CSV download from /admin/calls/export.
 */
import { type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Download, ScrollText } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigation } from 'react-router'
import type { Route } from './+types/calls'
import { callOutcomes, endpoints, usageCursorPattern, type AdminCall } from '#relay/contract/index.ts'
import { Field } from '#app/components/forms/field.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { CallFilters } from '#app/components/usage/call-filters.tsx'
import { CallTable, type CallColumn } from '#app/components/usage/call-table.tsx'
import { KeysetPager } from '#app/components/usage/keyset-pager.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { adminCallsFiltersSchema, adminCallsQuery, type AdminCallsFilters } from '#app/schemas/admin-calls.ts'
import { filtersSearch } from '#app/schemas/usage.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const submission = parseWithZod(url.searchParams, { schema: adminCallsFiltersSchema })
  // Filters that do not parse filter nothing; the form shows why.
  const filters: AdminCallsFilters = submission.status === 'success' ? submission.value : {}
  const cursor = url.searchParams.get('cursor')
  const relay = getRelay(context)
  const [calls, providers] = await Promise.all([
    relay.call(endpoints.admin.calls, { query: { ...adminCallsQuery(filters), cursor: cursor && usageCursorPattern.test(cursor) ? cursor : undefined } }),
    relay.call(endpoints.adminOps.providers, { query: {} }),
  ])
  return {
    title: getI18n(context).t('admin:calls.title'),
    calls,
    providers: providers.items.map((provider) => ({ value: provider.id, label: provider.label })),
    filters,
    // Only a refused filter comes back as a reply: the form then shows the typed values and why.
    result: submission.status === 'error' ? submission.reply() : undefined,
    paged: cursor !== null,
  }
}

export default function AdminCalls({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { calls, filters } = loaderData
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/admin/calls'
  const user: CallColumn<AdminCall> = {
    id: 'user',
    label: t('calls.user'),
    cell: (call) => (
      <Link to={`/admin/users/${call.user_id}`} className="font-medium break-all text-zinc-900 hover:text-indigo-600 dark:text-zinc-100 dark:hover:text-indigo-400">
        {call.username}
      </Link>
    ),
  }
  const provider: CallColumn<AdminCall> = {
    id: 'provider',
    label: t('calls.provider'),
    cell: (call) => <span className="text-xs text-zinc-600 dark:text-zinc-400">{call.provider ?? '—'}</span>,
  }
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('calls.subtitle')}
        actions={
          // A plain link: the export streams from the relay as a download, with or without JavaScript.
          <a href={`/admin/calls/export${filtersSearch(filters)}`} download className={buttonClass({ variant: 'secondary' })} data-testid="admin-calls-export">
            <Download className="size-4" aria-hidden />
            {t('calls.export')}
          </a>
        }
      />
      <Filters providers={loaderData.providers} filters={filters} result={loaderData.result} />
      <Card aria-labelledby="admin-calls-title" aria-busy={loading || undefined} className={cn('transition-opacity', loading && 'opacity-60')}>
        <h2 id="admin-calls-title" className="sr-only">
          {t('calls.caption')}
        </h2>
        {calls.items.length === 0 ? (
          <EmptyState icon={ScrollText} title={t('calls.empty')} testId="admin-calls-empty" />
        ) : (
          <CallTable
            calls={calls.items}
            columns={['time', user, 'model', provider, 'outcome', 'points', 'id']}
            href={(call) => `/admin/calls/${call.id}`}
            testId="admin-calls"
            noModel={t('calls.noModel')}
          />
        )}
        <KeysetPager
          newest={loaderData.paged ? `/admin/calls${filtersSearch(filters)}` : null}
          older={calls.next_cursor ? `/admin/calls${filtersSearch(filters, { cursor: calls.next_cursor })}` : null}
          labels={{ nav: t('pager.nav'), newest: t('calls.newest'), newestShown: t('calls.newestShown'), older: t('calls.older') }}
          testId="admin-calls-older"
        />
      </Card>
    </div>
  )
}

function Filters({ providers, filters, result }: { providers: Array<{ value: string; label: string }>; filters: AdminCallsFilters; result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const { t: tu } = useTranslation('usage')
  const [form, fields] = useZodForm(adminCallsFiltersSchema, { id: 'admin-calls-filters', lastResult: result, defaultValue: filters })
  return (
    <CallFilters
      form={form}
      title={t('calls.caption')}
      hint={t('calls.hint')}
      clear={{ to: '/admin/calls', label: t('filter.clear') }}
      apply={t('filter.apply')}
      testId="admin-calls-filters"
      className="grid-cols-2 lg:grid-cols-4"
    >
      <Field meta={fields.request} label={t('calls.requestId')} placeholder={t('calls.requestIdHint')} inputMode="numeric" autoComplete="off" className="col-span-2 lg:col-span-1" />
      <Field meta={fields.user} label={t('calls.user')} placeholder={t('calls.userHint')} autoComplete="off" />
      <Field meta={fields.key} label={t('calls.key')} inputMode="numeric" autoComplete="off" />
      <Field meta={fields.model} label={t('calls.model')} placeholder={t('calls.modelHint')} autoComplete="off" className="col-span-2 lg:col-span-1" />
      <SelectField meta={fields.provider} label={t('calls.provider')} placeholder={t('filter.any')} options={providers} />
      <SelectField
        meta={fields.outcome}
        label={t('calls.outcome')}
        placeholder={t('filter.any')}
        options={callOutcomes.map((outcome) => ({ value: outcome, label: tu(`outcome.${outcome}`) }))}
      />
      <Field meta={fields.from} type="date" label={t('calls.from')} />
      <Field meta={fields.to} type="date" label={t('calls.to')} />
    </CallFilters>
  )
}
