/**
 * The ticket list (docs/product.md "Tickets list"): number, title, type, status and created time, with
 * view, close and reopen per ticket, a status filter and page links, all plain links and forms.
 */
import { Plus, Ticket as TicketIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigation } from 'react-router'
import type { Route } from './+types/index'
import { endpoints, pageDefaults, ticketStatusFilters, type Ticket, type TicketStatusFilter } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { TicketStatusButtons } from '#app/components/tickets/status-buttons.tsx'
import { TicketStatusBadge, TicketTypeLabel } from '#app/components/tickets/ticket-labels.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Pagination } from '#app/components/ui/pagination.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { changeTicketStatus } from './status-action.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

function statusFilter(request: Request): TicketStatusFilter | undefined {
  const status = new URL(request.url).searchParams.get('status')
  return (ticketStatusFilters as readonly (string | null)[]).includes(status) ? (status as TicketStatusFilter) : undefined
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const status = statusFilter(request)
  // docs/product.md, Messages "fetch tickets failed": the list says so and offers a reload; the page stands.
  const tickets = await optionalRead(
    getRelay(context).call(endpoints.tickets.list, { query: { page: pageParam(request), pageSize: pageDefaults.pageSize, status } }),
  )
  return { title: getI18n(context).t('tickets:title'), tickets, status }
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url)
  return changeTicketStatus(context, await request.formData(), `${url.pathname}${url.search}`)
}

export default function Tickets({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('tickets')
  const { tickets, status } = loaderData
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/tickets'
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('subtitle')}
        actions={
          <Link to="/tickets/create" className={buttonClass({ variant: 'primary' })}>
            <Plus className="size-4" />
            {t('list.new')}
          </Link>
        }
      />
      <StatusFilter current={status} />
      <Card aria-labelledby="tickets-title" aria-busy={loading || undefined} className={cn('transition-opacity', loading && 'opacity-60')}>
        <h2 id="tickets-title" className="sr-only">
          {t('list.title')}
        </h2>
        {tickets === null ? (
          <div className="space-y-3" data-testid="tickets-failed">
            <Notice tone="error">{t('list.failed')}</Notice>
            <Link to="." className={buttonClass({ variant: 'secondary' })}>
              {t('list.retry')}
            </Link>
          </div>
        ) : tickets.items.length === 0 ? (
          <NoTickets filtered={status !== undefined || tickets.page > 1} />
        ) : (
          <TicketTable tickets={tickets.items} />
        )}
        {tickets && tickets.total > tickets.pageSize ? (
          <div className="mt-4 border-t border-zinc-100 pt-4 dark:border-zinc-800">
            <Pagination
              page={tickets.page}
              pageSize={tickets.pageSize}
              total={tickets.total}
              labels={{
                nav: t('pager.nav'),
                previous: t('pager.previous'),
                next: t('pager.next'),
                summary: (pages) => t('pager.summary', { page: tickets.page, pages, total: tickets.total }),
              }}
            />
          </div>
        ) : null}
      </Card>
    </div>
  )
}

const filterOrder: ReadonlyArray<TicketStatusFilter | undefined> = [undefined, 'open', 'pending', 'processing', 'completed', 'closed', 'rejected']

function StatusFilter({ current }: { current?: TicketStatusFilter }) {
  const { t } = useTranslation('tickets')
  return (
    <nav aria-label={t('filter.label')} className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1">
      {filterOrder.map((filter) => {
        const active = filter === current
        return (
          <Link
            key={filter ?? 'all'}
            to={filter ? `/tickets?status=${filter}` : '/tickets'}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'rounded-full px-3 py-1.5 text-sm font-medium whitespace-nowrap ring-1 ring-inset transition-colors',
              active
                ? 'bg-indigo-600 text-white ring-indigo-600 dark:bg-indigo-500 dark:ring-indigo-500'
                : 'text-zinc-600 ring-zinc-200 hover:bg-zinc-50 dark:text-zinc-300 dark:ring-zinc-800 dark:hover:bg-zinc-800',
            )}
          >
            {filter === undefined ? t('filter.all') : filter === 'open' ? t('filter.open') : t(`statuses.${filter}`)}
          </Link>
        )
      })}
    </nav>
  )
}

function NoTickets({ filtered }: { filtered: boolean }) {
  const { t } = useTranslation('tickets')
  return filtered ? (
    <EmptyState icon={TicketIcon} title={t('list.emptyFiltered')} testId="tickets-empty">
      <Link to="/tickets" className={buttonClass({ variant: 'secondary', className: 'mt-4' })}>
        {t('list.showAll')}
      </Link>
    </EmptyState>
  ) : (
    <EmptyState icon={TicketIcon} title={t('list.emptyTitle')} body={t('list.emptyBody')} testId="tickets-empty">
      <Link to="/tickets/create" className={buttonClass({ variant: 'primary', className: 'mt-4' })}>
        {t('list.new')}
      </Link>
    </EmptyState>
  )
}

function TicketTable({ tickets }: { tickets: Ticket[] }) {
  const { t } = useTranslation('tickets')
  return (
    <Table
      phone="stack"
      caption={t('list.caption')}
      testId="tickets-table"
      columns={[
        { id: 'number', label: t('list.number') },
        { id: 'titleColumn', label: t('list.titleColumn') },
        { id: 'type', label: t('list.type') },
        { id: 'status', label: t('list.status') },
        { id: 'created', label: t('list.created') },
        { id: 'actions', label: t('list.actions'), align: 'end' },
      ]}
    >
      {tickets.map((ticket) => (
        <TicketRow key={ticket.id} ticket={ticket} />
      ))}
    </Table>
  )
}

/** A table row on desktop, a compact card on phones. */
function TicketRow({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('tickets')
  const href = `/tickets/${ticket.id}`
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="ticket-row">
      <td className="col-span-2 font-mono text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:whitespace-nowrap dark:text-zinc-400">
        {ticket.number}
      </td>
      <td className="col-span-2 min-w-0 md:table-cell md:max-w-xs md:py-3 md:pr-3">
        <Link to={href} className="font-medium break-words text-zinc-900 hover:text-indigo-600 dark:text-zinc-100 dark:hover:text-indigo-400">
          {ticket.title}
        </Link>
      </td>
      <td className="text-zinc-600 md:table-cell md:py-3 md:pr-3 md:whitespace-nowrap dark:text-zinc-400">
        <TicketTypeLabel type={ticket.type} />
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        <TicketStatusBadge status={ticket.status} />
      </td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm md:whitespace-nowrap dark:text-zinc-400">
        <LocalTime ms={ticket.create_timestamp} />
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:text-right">
        <div className="flex items-center justify-end gap-1.5">
          <Link to={href} className={buttonClass({ variant: 'ghost', size: 'sm' })} aria-label={`${t('list.view')} ${ticket.number}`}>
            {t('list.view')}
          </Link>
          <TicketStatusButtons id={ticket.id} status={ticket.status} />
        </div>
      </td>
    </tr>
  )
}
