/** The ticket queue: every user's tickets, found by number or user and filtered by status, type, priority and assignee (GET form, no JavaScript needed). */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/tickets'
import { endpoints, idSchema, ticketPriorities, ticketStatusFilters, ticketStatuses, ticketTypes, type AdminTicket } from '#relay/contract/index.ts'
import { FilterForm, FilterInput, FilterSelect, ListPager, oneOf } from '#app/components/admin/list-controls.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { TicketPriorityBadge, TicketStatusBadge, TicketTypeLabel } from '#app/components/tickets/ticket-labels.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { pageParam } from '#app/utils/page-param.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const assignee = url.searchParams.get('assignee')
  const filter = {
    status: oneOf(url, 'status', ticketStatusFilters),
    type: oneOf(url, 'type', ticketTypes),
    priority: oneOf(url, 'priority', ticketPriorities),
    assignee: assignee === 'none' || idSchema.safeParse(assignee).success ? assignee! : undefined,
    q: url.searchParams.get('q')?.trim().slice(0, 64) || undefined,
  }
  const relay = getRelay(context)
  const [tickets, operators] = await Promise.all([
    relay.call(endpoints.admin.tickets, { query: { ...filter, page: pageParam(request), pageSize: 20 } }),
    relay.call(endpoints.adminOps.operators),
  ])
  return { title: getI18n(context).t('admin:tickets.title'), tickets, filter, operators: operators.items }
}

export default function AdminTickets({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { t: tt } = useTranslation('tickets')
  const { tickets, filter } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('tickets.subtitle')} />
      <FilterForm testId="ticket-filter">
        <FilterInput name="q" label={t('tickets.search')} value={filter.q} />
        <FilterSelect
          name="status"
          label={t('tickets.status')}
          value={filter.status}
          options={[{ value: 'open', label: t('filter.open') }, ...ticketStatuses.map((s) => ({ value: s, label: tt(`statuses.${s}`) }))]}
        />
        <FilterSelect name="type" label={t('tickets.type')} value={filter.type} options={ticketTypes.map((s) => ({ value: s, label: tt(`types.${s}`) }))} />
        <FilterSelect name="priority" label={t('tickets.priority')} value={filter.priority} options={ticketPriorities.map((s) => ({ value: s, label: tt(`priorities.${s}`) }))} />
        <FilterSelect
          name="assignee"
          label={t('ticket.assignee')}
          value={filter.assignee}
          options={[{ value: 'none', label: t('ticket.unassigned') }, ...loaderData.operators.map((o) => ({ value: o.id, label: o.username }))]}
        />
      </FilterForm>
      <Card>
        {tickets.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="admin-tickets-empty">
            {t('tickets.empty')}
          </p>
        ) : (
          <Table
            phone="stack"
            caption={t('tickets.caption')}
            testId="admin-tickets"
            columns={[
              { id: 'number', label: t('tickets.number') },
              { id: 'title', label: t('tickets.titleColumn') },
              { id: 'owner', label: t('tickets.owner') },
              { id: 'assignee', label: t('ticket.assignee') },
              { id: 'type', label: t('tickets.type') },
              { id: 'priority', label: t('tickets.priority') },
              { id: 'status', label: t('tickets.status') },
              { id: 'updated', label: t('tickets.updated') },
            ]}
          >
            {tickets.items.map((ticket) => (
              <QueueRow key={ticket.id} ticket={ticket} />
            ))}
          </Table>
        )}
        <ListPager page={tickets.page} pageSize={tickets.pageSize} total={tickets.total} />
      </Card>
    </div>
  )
}

/** A table row on desktop, a compact card on phones. */
function QueueRow({ ticket }: { ticket: AdminTicket }) {
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="admin-ticket-row">
      <td className="font-mono text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:whitespace-nowrap dark:text-zinc-400">{ticket.number}</td>
      <td className="col-span-2 row-start-2 min-w-0 md:table-cell md:max-w-xs md:py-3 md:pr-3">
        <Link to={`/admin/tickets/${ticket.id}`} className="font-medium break-words text-zinc-900 hover:text-indigo-600 dark:text-zinc-100 dark:hover:text-indigo-400">
          {ticket.title}
        </Link>
      </td>
      <td className="text-zinc-600 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">
        <Link to={`/admin/users/${ticket.owner_id}`} className="hover:text-indigo-600 dark:hover:text-indigo-400">
          {ticket.owner_name}
        </Link>
      </td>
      <td className="justify-self-end text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400" data-testid="ticket-assignee">
        {ticket.assignee_name ? `→ ${ticket.assignee_name}` : null}
      </td>
      <td className="text-zinc-600 md:table-cell md:py-3 md:pr-3 md:whitespace-nowrap dark:text-zinc-400">
        <TicketTypeLabel type={ticket.type} />
      </td>
      <td className="md:table-cell md:py-3 md:pr-3">
        <TicketPriorityBadge priority={ticket.priority} />
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        <TicketStatusBadge status={ticket.status} />
      </td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:text-sm md:whitespace-nowrap dark:text-zinc-400">
        <LocalTime ms={ticket.update_timestamp} />
      </td>
    </tr>
  )
}
