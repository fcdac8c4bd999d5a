/**
 * One ticket (docs/product.md "Ticket detail"): the conversation with operator replies set apart, the
 * ticket's details (times, assignee, tags), the status legend, a reply box, close and reopen,
 * and a not-found state for an id that is missing or belongs to someone else.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form } from 'react-router'
import type { Route } from './+types/detail'
import { endpoints, ticketBounds, type TicketDetail } from '#relay/contract/index.ts'
import { FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { NotFoundCard } from '#app/components/not-found-card.tsx'
import { TicketConversation } from '#app/components/tickets/conversation.tsx'
import { StatusLegend } from '#app/components/tickets/status-legend.tsx'
import { canClose, TicketStatusButtons } from '#app/components/tickets/status-buttons.tsx'
import { TicketPriorityBadge, TicketStatusBadge, TicketTypeLabel } from '#app/components/tickets/ticket-labels.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { ticketReplySchema } from '#app/schemas/tickets.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { changeTicketStatus } from './status-action.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const t = getI18n(context).t
  try {
    const ticket = await getRelay(context).call(endpoints.tickets.detail, { params: { id: params.id } })
    return { title: `${ticket.number} · ${t('tickets:title')}`, ticket, formKey: newFormKey() }
  } catch (error) {
    // Missing, someone else's (the relay answers 404) or not an id at all (400): not found.
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) {
      return data({ title: t('tickets:detail.notFoundTitle'), ticket: null, formKey: '' }, { status: 404 })
    }
    throw error
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const back = `/tickets/${params.id}`
  const formData = await request.formData()
  if (formData.get('intent') !== 'reply') return changeTicketStatus(context, formData, back)
  const submission = parseWithZod(formData, { schema: ticketReplySchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // A repeat of the same form (reload, double click) answers the first reply instead of posting twice.
    await getRelay(context).call(endpoints.tickets.reply, { params: { id: params.id }, body: submission.value, ...formKeyOf(formData) })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'tickets:detail.replyFailed' })
  }
  return redirectWithToast(back, { type: 'success', key: 'tickets:toast.replied' })
}

export default function TicketDetailRoute({ params, loaderData, actionData }: Route.ComponentProps) {
  return <TicketDetailScreen id={params.id} ticket={loaderData.ticket} formKey={loaderData.formKey} replyResult={actionData?.result} />
}

/** docs/product.md: the screen receives the ticket id as a property. */
function TicketDetailScreen({
  id,
  ticket,
  formKey,
  replyResult,
}: {
  id: string
  ticket: TicketDetail | null
  formKey: string
  replyResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation('tickets')
  if (!ticket) {
    return <NotFoundCard title={t('detail.notFoundTitle')} body={t('detail.notFoundBody')} back="/tickets" backLabel={t('detail.back')} data-testid="ticket-not-found" data-ticket-id={id} />
  }
  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <BackLink to="/tickets">{t('detail.back')}</BackLink>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="font-mono text-sm text-zinc-500 dark:text-zinc-400" data-testid="ticket-number">
              {ticket.number}
            </p>
            <h1 className="mt-1 text-xl font-bold tracking-tight break-words sm:text-2xl" data-testid="ticket-title">
              {ticket.title}
            </h1>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <TicketStatusBadge status={ticket.status} />
              <TicketPriorityBadge priority={ticket.priority} />
              <span className="text-sm text-zinc-500 dark:text-zinc-400">
                <TicketTypeLabel type={ticket.type} />
              </span>
            </div>
          </div>
          <TicketStatusButtons id={ticket.id} status={ticket.status} />
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <TicketConversation ticket={ticket} testId="conversation" />
          <ReplyBox ticket={ticket} formKey={formKey} lastResult={replyResult} />
        </div>
        <div className="space-y-6">
          <TicketInfo ticket={ticket} />
          <StatusLegend current={ticket.status} />
        </div>
      </div>
    </div>
  )
}

function ReplyBox({ ticket, formKey, lastResult }: { ticket: TicketDetail; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('tickets')
  const [form, fields] = useZodForm(ticketReplySchema, { lastResult })
  if (ticket.status === 'closed') {
    return (
      <Card className="space-y-3" data-testid="reply-closed">
        <Notice tone="info">{t('detail.closedNotice')}</Notice>
        <TicketStatusButtons id={ticket.id} status={ticket.status} />
      </Card>
    )
  }
  return (
    <Card aria-labelledby="reply-title" id="reply">
      <CardTitle id="reply-title">{t('detail.reply')}</CardTitle>
      {canClose(ticket.status) ? null : (
        <Notice tone="info" className="mt-3">
          {t('detail.finalNotice')}
        </Notice>
      )}
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextareaField
          meta={fields.content}
          label={t('detail.replyLabel')}
          hint={t('detail.replyHint')}
          maxLength={ticketBounds.content.max}
          rows={4}
        />
        <div className="flex justify-end">
          <SubmitButton intent="reply">{t('detail.send')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}

function TicketInfo({ ticket }: { ticket: TicketDetail }) {
  const { t } = useTranslation('tickets')
  const time = (ms: number | null) => (ms === null ? t('detail.none') : <LocalTime ms={ms} />)
  const rows: Array<[string, React.ReactNode]> = [
    [t('detail.number'), <span className="font-mono">{ticket.number}</span>],
    [t('detail.type'), <TicketTypeLabel type={ticket.type} />],
    [t('detail.priority'), <TicketPriorityBadge priority={ticket.priority} />],
    [t('detail.status'), <TicketStatusBadge status={ticket.status} />],
    [t('detail.created'), time(ticket.create_timestamp)],
    [t('detail.updated'), time(ticket.update_timestamp)],
    [t('detail.replied'), time(ticket.reply_timestamp)],
    [t('detail.closed'), time(ticket.closed_timestamp)],
    [t('detail.assignee'), ticket.assignee_name ?? <span className="text-zinc-500 dark:text-zinc-400">{t('detail.unassigned')}</span>],
    [
      t('detail.tags'),
      ticket.tags.length === 0 ? (
        <span className="text-zinc-500 dark:text-zinc-400">{t('detail.noTags')}</span>
      ) : (
        <span className="flex flex-wrap justify-end gap-1">
          {ticket.tags.map((tag) => (
            <Badge key={tag} tone="zinc">
              {tag}
            </Badge>
          ))}
        </span>
      ),
    ],
  ]
  return (
    <Card aria-labelledby="info-title">
      <CardTitle id="info-title">{t('detail.info')}</CardTitle>
      <dl className="mt-4 divide-y divide-zinc-100 text-sm dark:divide-zinc-800" data-testid="ticket-info">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-4 py-2">
            <dt className="shrink-0 text-zinc-500 dark:text-zinc-400">{label}</dt>
            <dd className="min-w-0 text-right break-words text-zinc-900 dark:text-zinc-100">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  )
}
