/** The audit log: read-only, filtered by actor, action, target and days (UTC), paged. */
import { useTranslation } from 'react-i18next'
import type { Route } from './+types/audit'
import { auditActions, auditQuery, catalogAuditActions, endpoints, type AuditAction, type AuditEntry } from '#relay/contract/index.ts'
import { AuditChange } from '#app/components/admin/audit-change.tsx'
import { FilterForm, FilterInput, FilterSelect, ListPager, oneOf } from '#app/components/admin/list-controls.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { pageParam } from '#app/utils/page-param.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

/** A text filter the relay would accept, else left out (a mistyped date shows everything rather than an error). */
function textParam(url: URL, name: 'actor' | 'target' | 'from' | 'to'): string | undefined {
  const value = url.searchParams.get(name)?.trim()
  return value && auditQuery.shape[name].safeParse(value).success ? value : undefined
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const filter = {
    actor: textParam(url, 'actor'),
    action: oneOf(url, 'action', auditActions),
    target: textParam(url, 'target'),
    from: textParam(url, 'from'),
    to: textParam(url, 'to'),
  }
  const entries = await getRelay(context).call(endpoints.admin.audit, { query: { ...filter, page: pageParam(request), pageSize: 25 } })
  return { title: getI18n(context).t('admin:audit.title'), entries, filter }
}

type CatalogAction = (typeof catalogAuditActions)[number]
const isCatalogAction = (action: AuditAction): action is CatalogAction => (catalogAuditActions as readonly string[]).includes(action)

/** An action's name: the catalogue's actions are named in their own block of the locale files. */
function useActionLabel(): (action: AuditAction) => string {
  const { t } = useTranslation('admin')
  return (action) => (isCatalogAction(action) ? t(`catalog.auditActions.${action}`) : t(`audit.actions.${action}`))
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const actionLabel = useActionLabel()
  const { entries, filter } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('audit.subtitle')} />
      <FilterForm testId="audit-filter">
        <FilterInput name="actor" label={t('audit.actor')} value={filter.actor} placeholder={t('audit.actorHint')} />
        <FilterSelect name="action" label={t('audit.action')} value={filter.action} options={auditActions.map((a) => ({ value: a, label: actionLabel(a) }))} />
        <FilterInput name="target" label={t('audit.target')} value={filter.target} placeholder={t('audit.targetHint')} />
        <FilterInput name="from" type="date" label={t('audit.from')} value={filter.from} />
        <FilterInput name="to" type="date" label={t('audit.to')} value={filter.to} />
      </FilterForm>
      <Card>
        {entries.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('audit.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('audit.caption')}
            testId="audit-log"
            columns={[
              { id: 'when', label: t('audit.when') },
              { id: 'actor', label: t('audit.actor') },
              { id: 'action', label: t('audit.action') },
              { id: 'target', label: t('audit.target') },
              { id: 'change', label: `${t('audit.before')} → ${t('audit.after')}` },
            ]}
          >
            {entries.items.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </Table>
        )}
        <ListPager page={entries.page} pageSize={entries.pageSize} total={entries.total} />
      </Card>
    </div>
  )
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin')
  const actionLabel = useActionLabel()
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 align-top md:table-row md:py-0" data-testid="audit-row" data-action={entry.action}>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm md:whitespace-nowrap dark:text-zinc-400">
        <LocalTime ms={entry.create_timestamp} />
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        <span className="font-medium">{entry.actor_name}</span>{' '}
        <span className="text-xs text-zinc-500 dark:text-zinc-400">{entry.actor_kind === 'cli' ? t('audit.cli') : entry.client_ip}</span>
      </td>
      <td className="md:table-cell md:py-3 md:pr-3">
        <Badge tone="indigo">{actionLabel(entry.action)}</Badge>
      </td>
      <td className="justify-self-end font-mono text-xs md:table-cell md:py-3 md:pr-3" data-testid="audit-target">
        {entry.target_ref}
      </td>
      <td className="col-span-2 min-w-0 md:table-cell md:max-w-md md:py-3">
        <AuditChange before={entry.before} after={entry.after} />
      </td>
    </tr>
  )
}
