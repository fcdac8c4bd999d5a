/**
 * Tickets: creation, the status machine of docs/architecture.md §6, the conversation and the reads behind the
 * user's calls and the operator CLI. Writes take a `Database` that may be a transaction, so other
 * areas (the points-reset request) create and settle tickets inside their own transactions.
 */
import { sql, type Selectable } from 'kysely'
import {
  canTransition,
  openTicketStatuses,
  ticketTransitions as transitions,
  type Ticket,
  type TicketActor,
  type TicketAuthorKind,
  type TicketDetail,
  type TicketPage,
  type TicketPriority,
  type TicketStatus,
  type TicketStatusFilter,
  type TicketType,
} from '../contract/tickets.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { isId } from '../contract/ids.ts'
import { pageOffset, type PageQuery, type Paged } from '../contract/paging.ts'
import { containsText } from '../db/contains.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { SystemTicketKind, TicketsTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { ticketContent, ticketTitle } from './system-tickets.ts'

export { canTransition, type TicketActor }

export interface NewTicket {
  userId: string
  type: TicketType
  priority: TicketPriority
  title: string
  content: string
  /** A ticket the relay opens itself (system-tickets.ts): `title` is then its English title. */
  system?: Pick<TicketsTable, 'reset_reason'> & { kind: SystemTicketKind }
  /** Default pending; `completed` for a request approved on the spot. */
  status?: Exclude<TicketStatus, 'closed'>
  now: number
}

/** Creates a ticket inside the given database or transaction. */
export async function createTicket(
  db: Database,
  input: NewTicket,
): Promise<{ id: string; number: string; status: TicketStatus }> {
  const id = newId()
  const status = input.status ?? 'pending'
  const number = await nextTicketNumber(db, input.now)
  await db
    .insertInto('tickets')
    .values({
      id,
      number,
      user_id: input.userId,
      type: input.type,
      priority: input.priority,
      status,
      title: input.title,
      content: input.content,
      system_kind: input.system?.kind ?? null,
      reset_reason: input.system?.reset_reason ?? null,
      assignee_id: null,
      tags: '[]',
      create_timestamp: input.now,
      update_timestamp: input.now,
      reply_timestamp: null,
      closed_timestamp: null,
    })
    .execute()
  return { id, number, status }
}

/**
 * `T` + yymmdd (UTC) + the day's counter, at least 4 digits. The counter is one upserted row per
 * day, so concurrent creations never collide and never abort a caller's transaction with a
 * unique violation (docs/decisions/040-tickets.md).
 */
async function nextTicketNumber(db: Database, now: number): Promise<string> {
  const day = new Date(now).toISOString().slice(2, 10).replaceAll('-', '')
  const row = await db
    .insertInto('ticket_number_days')
    .values({ day, counter: 1 })
    .onConflict((oc) => oc.column('day').doUpdateSet({ counter: sql`${sql.ref('ticket_number_days.counter')} + 1` }))
    .returning('counter')
    .executeTakeFirstOrThrow()
  return `T${day}${String(row.counter).padStart(4, '0')}`
}

export interface StatusChange {
  ticketId: string
  to: TicketStatus
  by: TicketActor
  /** Set for a user's request: another user's ticket is then not found. */
  userId?: string
  now: number
}

/**
 * Moves a ticket to `to` if the machine allows it from its current status. One guarded UPDATE, so
 * two concurrent changes cannot both pass the check. Unknown (or someone else's) ticket → 404;
 * an illegal transition → 422 `ticket_transition_invalid`.
 */
export async function setTicketStatus(db: Database, change: StatusChange): Promise<TicketStatus> {
  const from = transitions[change.by][change.to] ?? []
  const result =
    from.length === 0
      ? undefined
      : await db
          .updateTable('tickets')
          .set({
            status: change.to,
            update_timestamp: change.now,
            closed_timestamp: change.to === 'closed' ? change.now : null,
          })
          .where('id', '=', change.ticketId)
          .$if(change.userId !== undefined, (qb) => qb.where('user_id', '=', change.userId!))
          .where('status', 'in', from)
          .executeTakeFirst()
  if (result && result.numUpdatedRows > 0n) return change.to
  const current = await findTicketRow(db, change.ticketId, change.userId)
  throw new RelayError('ticket_transition_invalid', `a ${current.status} ticket cannot become ${change.to}`, {
    from: current.status,
    to: change.to,
  })
}

async function findTicketRow(db: Database, ticketId: string, userId?: string): Promise<Selectable<TicketsTable>> {
  const row = await db
    .selectFrom('tickets')
    .selectAll()
    .where('id', '=', ticketId)
    .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId!))
    .executeTakeFirst()
  if (!row) throw new RelayError('not_found', 'ticket not found')
  return row
}

export interface NewMessage {
  ticketId: string
  kind: TicketAuthorKind
  /** The writer's account: the owner for a user reply, the assignee (if any) for an operator's. */
  authorId: string | null
  authorName: string | null
  content: string
  now: number
}

/**
 * Appends a message to the conversation; run it in a transaction with any status change that goes
 * with it. A user reply needs the ticket to be the user's and not closed (422 `ticket_closed`:
 * reopen it first); an operator reply is always accepted and records the reply time.
 */
export async function addTicketMessage(db: Database, message: NewMessage & { userId?: string }): Promise<string> {
  const result = await db
    .updateTable('tickets')
    .set(
      message.kind === 'admin'
        ? { update_timestamp: message.now, reply_timestamp: message.now }
        : { update_timestamp: message.now },
    )
    .where('id', '=', message.ticketId)
    .$if(message.userId !== undefined, (qb) => qb.where('user_id', '=', message.userId!))
    .$if(message.kind === 'user', (qb) => qb.where('status', '<>', 'closed'))
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) {
    await findTicketRow(db, message.ticketId, message.userId)
    throw new RelayError('ticket_closed', 'the ticket is closed: reopen it to reply')
  }
  const id = newId()
  await db
    .insertInto('ticket_messages')
    .values({
      id,
      ticket_id: message.ticketId,
      author_kind: message.kind,
      author_id: message.authorId,
      author_name: message.authorName,
      content: message.content,
      create_timestamp: message.now,
    })
    .execute()
  return id
}

function ticketsWithNames(db: Database) {
  return db
    .selectFrom('tickets')
    .innerJoin('users as owner', 'owner.id', 'tickets.user_id')
    .leftJoin('users as assignee', 'assignee.id', 'tickets.assignee_id')
    .selectAll('tickets')
    .select(['assignee.username as assignee_name', 'owner.username as owner_name'])
}

type TicketRow = Selectable<TicketsTable> & { assignee_name: string | null; owner_name: string }

/** The ticket in `lang`: the relay's own texts in the reader's language, a person's as written. */
function toTicket(row: TicketRow, lang: ContentLanguage): Ticket {
  return {
    id: row.id,
    number: row.number,
    type: row.type,
    priority: row.priority,
    status: row.status,
    title: ticketTitle(row, lang),
    content: ticketContent(row, lang),
    assignee_id: row.assignee_id,
    assignee_name: row.assignee_name,
    tags: parseTags(row.tags),
    create_timestamp: row.create_timestamp,
    update_timestamp: row.update_timestamp,
    reply_timestamp: row.reply_timestamp,
    closed_timestamp: row.closed_timestamp,
  }
}

export function parseTags(stored: string): string[] {
  const value: unknown = JSON.parse(stored)
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : []
}

function statusesOf(filter: TicketStatusFilter): readonly TicketStatus[] {
  return filter === 'open' ? openTicketStatuses : [filter]
}

export interface TicketListFilter extends PageQuery {
  status?: TicketStatusFilter
  type?: TicketType
  priority?: TicketPriority
  /** An operator's id, or `none`: tickets nobody is assigned. */
  assignee?: string
  /** Part of the number or of the owner's username. */
  q?: string
}

/** Newest first; every user's tickets unless `userId` scopes them. */
async function pageOfTickets(db: Database, filter: TicketListFilter & { userId?: string }): Promise<Paged<TicketRow>> {
  let query = ticketsWithNames(db)
  if (filter.userId !== undefined) query = query.where('tickets.user_id', '=', filter.userId)
  if (filter.status) query = query.where('tickets.status', 'in', statusesOf(filter.status))
  if (filter.type) query = query.where('tickets.type', '=', filter.type)
  if (filter.priority) query = query.where('tickets.priority', '=', filter.priority)
  if (filter.assignee) query = filter.assignee === 'none' ? query.where('tickets.assignee_id', 'is', null) : query.where('tickets.assignee_id', '=', filter.assignee)
  const q = filter.q
  if (q) query = query.where((eb) => eb.or([containsText('tickets.number', q), containsText('owner.username', q)]))
  const [rows, count] = await Promise.all([
    query.orderBy('tickets.id', 'desc').limit(filter.pageSize).offset(pageOffset(filter)).execute(),
    query.clearSelect().select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { items: rows, total: Number(count.total), page: filter.page, pageSize: filter.pageSize }
}

/** One user's tickets, newest first. */
export async function listTickets(db: Database, filter: TicketListFilter & { userId: string }, lang: ContentLanguage): Promise<TicketPage> {
  const page = await pageOfTickets(db, filter)
  return { ...page, items: page.items.map((row) => toTicket(row, lang)) }
}

/** Every user's tickets with their owner, for operators. */
export async function listAllTickets(db: Database, filter: TicketListFilter, lang: ContentLanguage): Promise<Paged<Ticket & { owner_id: string; owner_name: string }>> {
  const page = await pageOfTickets(db, filter)
  return { ...page, items: page.items.map((row) => ({ ...toTicket(row, lang), owner_id: row.user_id, owner_name: row.owner_name })) }
}

/** A ticket with its conversation, oldest message first; another user's ticket is not found (`userId` undefined: any user's). */
export async function getTicket(db: Database, ticketId: string, userId: string | undefined, lang: ContentLanguage): Promise<TicketDetail> {
  const [row, messages] = await Promise.all([
    ticketsWithNames(db)
      .where('tickets.id', '=', ticketId)
      .$if(userId !== undefined, (qb) => qb.where('tickets.user_id', '=', userId!))
      .executeTakeFirst(),
    db
      .selectFrom('ticket_messages')
      .select(['id', 'author_kind', 'author_name', 'content', 'create_timestamp'])
      .where('ticket_id', '=', ticketId)
      .orderBy('id', 'asc')
      .execute(),
  ])
  if (!row) throw new RelayError('not_found', 'ticket not found')
  return { ...toTicket(row, lang), messages }
}

/**
 * The ticket an operator names: its number (`T2501150001`, any case) or its id. Operators see
 * every user's tickets, so nothing is scoped here.
 */
export async function findTicketByReference(db: Database, reference: string): Promise<Selectable<TicketsTable>> {
  const trimmed = reference.trim()
  const query = db.selectFrom('tickets').selectAll()
  const row = /^T\d+$/i.test(trimmed)
    ? await query.where('number', '=', trimmed.toUpperCase()).executeTakeFirst()
    : isId(trimmed)
      ? await query.where('id', '=', trimmed).executeTakeFirst()
      : undefined
  if (!row) throw new RelayError('not_found', `no ticket ${reference}`)
  return row
}

export async function assignTicket(db: Database, ticketId: string, assigneeId: string | null, now: number): Promise<void> {
  await db.updateTable('tickets').set({ assignee_id: assigneeId, update_timestamp: now }).where('id', '=', ticketId).execute()
}

export async function setTicketTags(db: Database, ticketId: string, tags: readonly string[], now: number): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ tags: JSON.stringify(tags), update_timestamp: now })
    .where('id', '=', ticketId)
    .execute()
}
