/**
 * One ticket for an operator: the conversation, a reply box that can move the status in the same
 * step, a status change, its tags (added and removed one at a time), and for a points-reset request
 * its approval or denial.
 */
import { getFormProps, getSelectProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/ticket'
import { canTransition, endpoints, idSchema, operatorTicketStatuses, ticketBounds, type AdminTicketDetail, type AdminUserDetail } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { NotFoundCard } from '#app/components/not-found-card.tsx'
import { TicketConversation } from '#app/components/tickets/conversation.tsx'
import { TicketPriorityBadge, TicketStatusBadge, TicketTypeLabel } from '#app/components/tickets/ticket-labels.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { adminReplySchema, adminTicketStatusSchema, denyResetSchema, ticketTagFormSchema } from '#app/schemas/admin.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { badForm, operatorOutcome } from './outcome.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'
import { numberFormat } from '#app/utils/intl-formats.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const t = getI18n(context).t
  try {
    const relay = getRelay(context)
    const [ticket, operators] = await Promise.all([relay.call(endpoints.admin.ticket, { params: { id: params.id } }), relay.call(endpoints.adminOps.operators)])
    // A points-reset request is decided on the owner's balance, limit and earlier resets.
    const owner = ticket.type === 'pointsReset' ? await relay.call(endpoints.admin.user, { params: { id: ticket.owner_id } }) : null
    return { title: `${ticket.number} · ${t('admin:title')}`, ticket, owner, operators: operators.items, formKey: newFormKey() }
  } catch (error) {
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) {
      return data({ title: t('admin:ticket.notFound'), ticket: null, owner: null, operators: [], formKey: '' }, { status: 404 })
    }
    throw error
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const back = `/admin/tickets/${params.id}`
  const relay = getRelay(context)
  const formData = await request.formData()
  const id = { id: params.id }
  switch (formData.get('intent')) {
    case 'reply': {
      const submission = parseWithZod(formData, { schema: adminReplySchema })
      if (submission.status !== 'success') return invalid(submission)
      try {
        await relay.call(endpoints.admin.replyTicket, { params: id, body: submission.value, ...formKeyOf(formData) })
      } catch (error) {
        return relayRefusal(submission, error, { failed: 'admin:failed' })
      }
      return redirectWithToast(back, { type: 'success', key: 'admin:toast.replied' })
    }
    case 'status': {
      const parsed = adminTicketStatusSchema.safeParse({ status: formData.get('status') })
      if (!parsed.success) return badForm(back)
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.admin.setTicketStatus, { params: id, body: parsed.data })
        return { type: 'success', key: 'admin:toast.statusChanged' }
      })
    }
    case 'approve':
      return operatorOutcome(back, async () => {
        const { points_added } = await relay.call(endpoints.admin.approveReset, { params: id })
        return { type: 'success', key: 'admin:toast.resetApproved', values: { points: points_added } }
      })
    case 'deny': {
      const parsed = denyResetSchema.safeParse({ content: formData.get('content') || undefined })
      if (!parsed.success) return badForm(back)
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.admin.denyReset, { params: id, body: parsed.data })
        return { type: 'success', key: 'admin:toast.resetDenied' }
      })
    }
    case 'assign': {
      const to = formData.get('assignee')
      const assignee = to === '' ? null : idSchema.safeParse(to)
      if (assignee !== null && !assignee.success) return badForm(back)
      return operatorOutcome(back, async () => {
        const assigned = await relay.call(endpoints.adminOps.assignTicket, { params: id, body: { assignee_id: assignee?.data ?? null } })
        return assigned.assignee_name
          ? { type: 'success', key: 'admin:ops.toast.assigned', values: { name: assigned.assignee_name } }
          : { type: 'success', key: 'admin:ops.toast.unassigned' }
      })
    }
    case 'tag-add': {
      const submission = parseWithZod(formData, { schema: ticketTagFormSchema })
      if (submission.status !== 'success') return invalid(submission)
      try {
        // Adding a tag the ticket has changes nothing: a repeated post is harmless.
        await relay.call(endpoints.admin.setTicketTags, { params: id, body: { add: [submission.value.tag], remove: [] } })
      } catch (error) {
        return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf: { validation: 'tag' }, messageOf: { validation: 'admin:ticket.tagsFull' } })
      }
      return redirectWithToast(back, { type: 'success', key: 'admin:toast.tagsChanged' })
    }
    case 'tag-remove': {
      const tag = ticketTagFormSchema.safeParse({ tag: formData.get('tag') })
      if (!tag.success) return badForm(back)
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.admin.setTicketTags, { params: id, body: { add: [], remove: [tag.data.tag] } })
        return { type: 'success', key: 'admin:toast.tagsChanged' }
      })
    }
    default:
      return badForm(back)
  }
}

/** Which form an answer belongs to: two forms of the page validate on the server. */
function resultOf(actionData: { result?: SubmissionResult<string[]> } | undefined, intent: string) {
  return actionData?.result?.initialValue?.intent === intent ? actionData.result : undefined
}

export default function AdminTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { ticket } = loaderData
  if (!ticket) return <NotFoundCard title={t('ticket.notFound')} back="/admin/tickets" backLabel={t('ticket.back')} data-testid="admin-ticket-not-found" />
  const open = operatorTicketStatuses.some((to) => canTransition('staff', ticket.status, to))
  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <BackLink to="/admin/tickets">{t('ticket.back')}</BackLink>
        <div className="min-w-0">
          <p className="font-mono text-sm text-zinc-500 dark:text-zinc-400">{ticket.number}</p>
          <h1 className="mt-1 text-xl font-bold tracking-tight break-words sm:text-2xl">{ticket.title}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <span data-testid="admin-ticket-status">
              <TicketStatusBadge status={ticket.status} />
            </span>
            <TicketPriorityBadge priority={ticket.priority} />
            <span className="text-sm text-zinc-500 dark:text-zinc-400">
              <TicketTypeLabel type={ticket.type} />
            </span>
          </div>
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {ticket.type === 'pointsReset' ? <ResetDecision open={open} ticketId={ticket.id} owner={loaderData.owner} /> : null}
          <TicketConversation ticket={ticket} owner={ticket.owner_name} testId="admin-conversation" />
          <ReplyBox ticket={ticket} formKey={loaderData.formKey} lastResult={resultOf(actionData, 'reply')} />
        </div>
        <div className="space-y-6">
          <TicketFacts ticket={ticket} />
          <Assign ticket={ticket} operators={loaderData.operators} />
          <Tags ticket={ticket} lastResult={resultOf(actionData, 'tag-add')} />
          {open ? <StatusChange ticket={ticket} /> : null}
        </div>
      </div>
    </div>
  )
}

function ReplyBox({ ticket, formKey, lastResult }: { ticket: AdminTicketDetail; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const { t: tt } = useTranslation('tickets')
  const [form, fields] = useZodForm(adminReplySchema, { lastResult })
  const moves = operatorTicketStatuses.filter((to) => canTransition('staff', ticket.status, to))
  return (
    <Card>
      <CardTitle>{t('ticket.reply')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" data-testid="admin-reply">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextareaField meta={fields.content} label={t('ticket.replyLabel')} hint={t('ticket.replyHint')} maxLength={ticketBounds.content.max} rows={4} />
        <div className="flex flex-wrap items-end justify-between gap-3">
          {moves.length > 0 ? (
            <div className="w-full space-y-1.5 sm:w-56">
              <Label htmlFor={fields.status.id}>{t('ticket.thenStatus')}</Label>
              <select {...getSelectProps(fields.status)} key={fields.status.key} className={cn(inputClass, 'pr-8')}>
                <option value="">{t('ticket.keepStatus')}</option>
                {moves.map((to) => (
                  <option key={to} value={to}>
                    {tt(`statuses.${to}`)}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <span />
          )}
          <SubmitButton intent="reply">{t('ticket.send')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}

function StatusChange({ ticket }: { ticket: AdminTicketDetail }) {
  const { t } = useTranslation('admin')
  const { t: tt } = useTranslation('tickets')
  const moves = operatorTicketStatuses.filter((to) => canTransition('staff', ticket.status, to))
  return (
    <Card>
      <CardTitle>{t('ticket.setStatus')}</CardTitle>
      <Form method="post" className="mt-4 flex items-end gap-2" data-testid="admin-status">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor="admin-status-select" className="sr-only">
            {t('tickets.status')}
          </Label>
          <select id="admin-status-select" name="status" className={cn(inputClass, 'pr-8')}>
            {moves.map((to) => (
              <option key={to} value={to}>
                {tt(`statuses.${to}`)}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton intent="status" variant="secondary">
          {t('ticket.apply')}
        </SubmitButton>
      </Form>
    </Card>
  )
}

function Assign({ ticket, operators }: { ticket: AdminTicketDetail; operators: Array<{ id: string; username: string }> }) {
  const { t } = useTranslation('admin')
  return (
    <Card>
      <CardTitle>{t('ops.assign.title')}</CardTitle>
      <Form method="post" className="mt-4 flex items-end gap-2" data-testid="admin-assign">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor="admin-assignee" className="sr-only">
            {t('ticket.assignee')}
          </Label>
          <select id="admin-assignee" name="assignee" defaultValue={ticket.assignee_id ?? ''} className={cn(inputClass, 'pr-8')}>
            <option value="">{t('ticket.unassigned')}</option>
            {operators.map((operator) => (
              <option key={operator.id} value={operator.id}>
                {operator.username}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton intent="assign" variant="secondary">
          {t('ops.assign.submit')}
        </SubmitButton>
      </Form>
    </Card>
  )
}

function ResetDecision({ open, ticketId, owner }: { open: boolean; ticketId: string; owner: AdminUserDetail | null }) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  // The owner's latest tickets, newest first: the resets granted before this one.
  const earlier = owner?.tickets.items.filter((item) => item.type === 'pointsReset' && item.id !== ticketId && item.status === 'completed') ?? []
  return (
    <Card className="border-amber-200 dark:border-amber-900/60" data-testid="reset-decision">
      <CardTitle>{t('ticket.reset.title')}</CardTitle>
      {owner ? (
        <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3" data-testid="reset-facts">
          <div>
            <dt className="text-xs text-zinc-500 dark:text-zinc-400">{t('ticket.reset.balance')}</dt>
            <dd className="mt-0.5 tabular-nums">
              {numbers.format(owner.points.balance)} / {numbers.format(owner.points.points_limit)}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-zinc-500 dark:text-zinc-400">{t('ticket.reset.used')}</dt>
            <dd className="mt-0.5 tabular-nums">{numbers.format(owner.points.used_points)}</dd>
          </div>
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-xs text-zinc-500 dark:text-zinc-400">{t('ticket.reset.earlier')}</dt>
            <dd className="mt-0.5">
              {earlier.length === 0 ? (
                t('ticket.reset.none')
              ) : (
                <ul className="space-y-0.5">
                  {earlier.map((item) => (
                    <li key={item.id}>
                      <Link to={`/admin/tickets/${item.id}`} className="font-mono text-xs text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
                        {item.number}
                      </Link>{' '}
                      <LocalTime ms={item.update_timestamp} />
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
      ) : null}
      {open ? (
        <>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('ticket.reset.body')}</p>
          <div className="mt-4 grid gap-4 sm:grid-cols-[auto_1fr] sm:items-end">
            <Form method="post">
              <SubmitButton intent="approve">{t('ticket.reset.approve')}</SubmitButton>
            </Form>
            <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <div className="min-w-0 flex-1 space-y-1.5">
                <Label htmlFor="deny-content">{t('ticket.reset.denyLabel')}</Label>
                <input id="deny-content" name="content" maxLength={ticketBounds.content.max} className={inputClass} />
              </div>
              <SubmitButton intent="deny" variant="danger">
                {t('ticket.reset.deny')}
              </SubmitButton>
            </Form>
          </div>
        </>
      ) : (
        <Notice tone="info" className="mt-3">
          {t('ticket.reset.decided')}
        </Notice>
      )}
    </Card>
  )
}

function TicketFacts({ ticket }: { ticket: AdminTicketDetail }) {
  const { t } = useTranslation('admin')
  const rows: Array<[string, React.ReactNode]> = [
    [t('ticket.owner'), <Link to={`/admin/users/${ticket.owner_id}`} className="font-medium text-indigo-600 dark:text-indigo-400">{ticket.owner_name}</Link>],
    [t('ticket.created'), <LocalTime ms={ticket.create_timestamp} />],
    [t('tickets.updated'), <LocalTime ms={ticket.update_timestamp} />],
    [t('ticket.assignee'), ticket.assignee_name ?? t('ticket.unassigned')],
  ]
  return (
    <Card>
      <CardTitle>{t('ticket.info')}</CardTitle>
      <dl className="mt-4 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-4 py-2">
            <dt className="shrink-0 text-zinc-500 dark:text-zinc-400">{label}</dt>
            <dd className="min-w-0 text-right break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  )
}

/** Tags (the CLI's `ticket tag`): each a badge with its own remove button, and a field to add one. */
function Tags({ ticket, lastResult }: { ticket: AdminTicketDetail; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(ticketTagFormSchema, { lastResult, id: 'ticket-tag' })
  const full = ticket.tags.length >= ticketBounds.tags.max
  return (
    <Card data-testid="ticket-tags">
      <CardTitle>{t('ticket.tags')}</CardTitle>
      {ticket.tags.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('ticket.noTags')}</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-2">
          {ticket.tags.map((tag) => (
            <li key={tag}>
              <Form method="post" className="inline-flex items-center gap-1 rounded-full bg-zinc-100 py-0.5 pr-1 pl-3 text-sm dark:bg-zinc-800" data-testid="ticket-tag">
                <span className="[overflow-wrap:anywhere]">{tag}</span>
                <input type="hidden" name="tag" value={tag} />
                <button
                  type="submit"
                  name="intent"
                  value="tag-remove"
                  aria-label={t('ticket.removeTag', { tag })}
                  className="rounded-full p-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {full ? (
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('ticket.tagsFull')}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-2" data-testid="ticket-tag-add">
          <FormErrors id={form.errorId} errors={form.errors} />
          <div className="flex items-start gap-2">
            <div className="min-w-0 flex-1">
              <Field meta={fields.tag} label={t('ticket.tagLabel')} maxLength={ticketBounds.tags.tagMax} autoComplete="off" />
            </div>
            <div className="pt-7">
              <SubmitButton intent="tag-add" variant="secondary">
                {t('ticket.addTag')}
              </SubmitButton>
            </div>
          </div>
        </Form>
      )}
    </Card>
  )
}
