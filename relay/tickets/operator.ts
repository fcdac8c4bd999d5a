/**
 * What operators do to tickets, from the console (relay/admin/routes.ts) and the CLI
 * (tickets/cli.ts) alike; each change is recorded in the audit log in its own transaction.
 */
import type { AdminTicketDetail } from '../contract/admin.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { ticketBounds, type TicketStatus } from '../contract/tickets.ts'
import type { Database } from '../db/open-database.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { RelayError } from '../http/relay-error.ts'
import { queueMail } from '../notifications/queue.ts'
import { findUserById, findUserByUsername } from '../users/users.ts'
import { addTicketMessage, assignTicket, findTicketByReference, getTicket, parseTags, setTicketStatus, setTicketTags } from './service.ts'

export type OperatorStatus = Extract<TicketStatus, 'processing' | 'completed' | 'rejected'>

/**
 * Answers a ticket as support, in its assignee's name when it has one (as the owner sees it),
 * optionally moving its status: reply, status change, audit row and the owner's mail land together or not at all.
 * Returns the ticket's status afterwards.
 */
export async function replyAsOperator(
  db: Database,
  operator: Operator,
  reply: { ticket: string; content: string; status?: OperatorStatus; now: number },
): Promise<{ number: string; status: TicketStatus }> {
  return db.transaction().execute(async (trx) => {
    const row = await findTicketByReference(trx, reply.ticket)
    const assignee = row.assignee_id ? await findUserById(trx, row.assignee_id) : undefined
    const messageId = await addTicketMessage(trx, {
      ticketId: row.id,
      kind: 'admin',
      authorId: assignee?.id ?? null,
      authorName: assignee?.username ?? null,
      content: reply.content,
      now: reply.now,
    })
    const status = reply.status ? await setTicketStatus(trx, { ticketId: row.id, to: reply.status, by: 'staff', now: reply.now }) : row.status
    await recordAudit(
      trx,
      operator,
      { action: 'ticket.reply', target: { kind: 'ticket', ref: row.number }, before: { status: row.status }, after: { status, message_id: messageId, content: reply.content } },
      reply.now,
    )
    // Queued with the reply, so the owner is mailed once, whichever of the console or the CLI answered.
    await queueMail(trx, { userId: row.user_id, event: 'ticket_reply', dedupeKey: `ticket_reply:${messageId}`, payload: { ticket_id: row.id, number: row.number, title: row.title }, now: reply.now })
    return { number: row.number, status }
  })
}

/** Moves a ticket along the staff transitions of tickets/service.ts. */
export async function setStatusAsOperator(db: Database, operator: Operator, change: { ticket: string; to: OperatorStatus; now: number }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findTicketByReference(trx, change.ticket)
    await setTicketStatus(trx, { ticketId: row.id, to: change.to, by: 'staff', now: change.now })
    await recordAudit(trx, operator, { action: 'ticket.status', target: { kind: 'ticket', ref: row.number }, before: { status: row.status }, after: { status: change.to } }, change.now)
  })
}

/**
 * Makes an operator the assignee of a ticket (the owner then sees replies signed with their
 * name), or nobody (`to` null). The assignee is named by id (console, which offers the admins)
 * or username (CLI).
 */
export async function assignAsOperator(
  db: Database,
  operator: Operator,
  change: { ticket: string; to: { id: string } | { username: string } | null; now: number },
): Promise<{ number: string; assignee_id: string | null; assignee_name: string | null }> {
  return db.transaction().execute(async (trx) => {
    const row = await findTicketByReference(trx, change.ticket)
    const before = row.assignee_id ? await findUserById(trx, row.assignee_id) : undefined
    const to = change.to === null ? null : 'id' in change.to ? await findUserById(trx, change.to.id) : await findUserByUsername(trx, change.to.username)
    if (change.to !== null && !to) throw new RelayError('not_found', `no user ${'id' in change.to ? change.to.id : change.to.username}`)
    await assignTicket(trx, row.id, to?.id ?? null, change.now)
    await recordAudit(
      trx,
      operator,
      { action: 'ticket.assign', target: { kind: 'ticket', ref: row.number }, before: { assignee: before?.username ?? null }, after: { assignee: to?.username ?? null } },
      change.now,
    )
    return { number: row.number, assignee_id: to?.id ?? null, assignee_name: to?.username ?? null }
  })
}

/**
 * Changes a ticket's tags: the console adds and removes (so a repeated post changes nothing more),
 * the CLI replaces the list. Audited with the tags before and after when they change.
 */
export async function setTagsAsOperator(
  db: Database,
  operator: Operator,
  change: { ticket: string; tags: { add: readonly string[]; remove: readonly string[] } | { replace: readonly string[] }; now: number },
): Promise<{ number: string; tags: string[] }> {
  return db.transaction().execute(async (trx) => {
    const row = await findTicketByReference(trx, change.ticket)
    const before = parseTags(row.tags)
    const { tags } = change
    const after = 'replace' in tags ? [...new Set(tags.replace)] : [...new Set([...before, ...tags.add])].filter((tag) => !tags.remove.includes(tag))
    if (after.length > ticketBounds.tags.max) throw new RelayError('validation', `at most ${ticketBounds.tags.max} tags`, { fields: { tags: [`at most ${ticketBounds.tags.max}`] } })
    if (after.join('\n') !== before.join('\n')) {
      await setTicketTags(trx, row.id, after, change.now)
      await recordAudit(trx, operator, { action: 'ticket.tags', target: { kind: 'ticket', ref: row.number }, before: { tags: before }, after: { tags: after } }, change.now)
    }
    return { number: row.number, tags: after }
  })
}

/** Any user's ticket with its owner, for the console. */
export async function ticketForOperator(db: Database, ticketId: string, lang: ContentLanguage): Promise<AdminTicketDetail> {
  const [detail, row] = await Promise.all([getTicket(db, ticketId, undefined, lang), findTicketByReference(db, ticketId)])
  const owner = await findUserById(db, row.user_id)
  return { ...detail, owner_id: row.user_id, owner_name: owner?.username ?? '' }
}
