/**
 * Points-reset requests (docs/product.md, docs/architecture.md §6). A request always creates a `pointsReset` ticket
 * (tickets/service.ts). It is approved on the spot when the user's personal package is in force and
 * their last applied reset is at least `pointsResetCooldownDays` old: the balance is topped up
 * to the package's limit (an `earned` row, reason `reset`) and the ticket is completed.
 * Otherwise the ticket waits for an operator, who approves or denies it in the console or with
 * `points approve-reset` / `points deny-reset`. A
 * request while the balance is at or above the limit is refused (`reset_not_needed`): a reset
 * would add nothing.
 */
import { pointsReasons, type ResetReason, type ResetTicketResult } from '../contract/points.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import type { RelayServices } from '../services.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { addTicketMessage, canTransition, createTicket, findTicketByReference, setTicketStatus } from '../tickets/service.ts'
import { systemTicketTitles } from '../tickets/system-tickets.ts'
import { lockedPlan } from './catch-up.ts'
import { appendEntry } from './entries.ts'
import { inTransaction, lockUser } from './locks.ts'
import { isInForce } from './plan.ts'
import { dayMs } from '../contract/days.ts'

export async function requestPointsReset(
  services: Pick<RelayServices, 'db' | 'clock' | 'config'>,
  userId: string,
  request: { reason: ResetReason; description: string },
): Promise<ResetTicketResult> {
  const { db, clock, config } = services
  return inTransaction(db, async (trx) => {
    const now = clock.now()
    await lockUser(trx, userId)
    const waiting = await trx
      .selectFrom('tickets')
      .select('id')
      .where('user_id', '=', userId)
      .where('type', '=', 'pointsReset')
      .where('status', 'in', ['pending', 'processing'])
      .executeTakeFirst()
    if (waiting) throw new RelayError('reset_already_pending')

    // A reset tops the balance up to the limit: at or above it there is nothing to do, and a
    // reset that adds nothing must not spend the cooldown either (docs/decisions/023-packages-teams-codes-resets.md).
    const plan = await lockedPlan(trx, userId, now)
    const inForce = plan !== null && isInForce(plan.subscription)
    if (inForce && plan.account.balance >= plan.pkg.points_limit) {
      throw new RelayError('reset_not_needed', undefined, { balance: plan.account.balance, points_limit: plan.pkg.points_limit })
    }
    // A team's pool is shared: one member's request never refills it without an operator (docs/decisions/023-packages-teams-codes-resets.md).
    const approve = inForce && plan.team === null && !(await resetSince(trx, userId, now - config.pointsResetCooldownDays * dayMs))
    const ticket = await createTicket(trx, {
      userId,
      type: 'pointsReset',
      priority: 'medium',
      // Read in each reader's language (tickets/system-tickets.ts); the row keeps the English title.
      title: systemTicketTitles.points_reset.en,
      content: request.description,
      system: { kind: 'points_reset', reset_reason: request.reason },
      now,
    })
    const added = approve ? await applyReset(trx, { userId, ticketId: ticket.id, automatic: true, now }) : 0
    return { ticket_id: ticket.id, ticket_number: ticket.number, status: approve ? 'completed' : 'pending', auto_approved: approve, points_added: added }
  })
}

/**
 * An operator's approval of a waiting request (console or CLI): resets the points, completes the
 * ticket and records both in the audit log, in one transaction.
 */
export async function approvePointsReset(db: Database, operator: Operator, approval: { ticket: string; now: number }): Promise<{ userId: string; amount: number }> {
  return inTransaction(db, async (trx) => {
    const ticket = await waitingResetRequest(trx, approval.ticket)
    await lockUser(trx, ticket.user_id)
    const amount = await applyReset(trx, { userId: ticket.user_id, ticketId: ticket.id, automatic: false, now: approval.now })
    await recordAudit(
      trx,
      operator,
      { action: 'points_reset.approve', target: { kind: 'ticket', ref: ticket.number }, before: { status: ticket.status }, after: { status: 'completed', points_added: amount } },
      approval.now,
    )
    return { userId: ticket.user_id, amount }
  })
}

/**
 * An operator's denial: the request's ticket is rejected, with an answer to the user when one is
 * given (reply, rejection and audit row together).
 */
export async function denyPointsReset(db: Database, operator: Operator, denial: { ticket: string; content?: string; now: number }): Promise<void> {
  await inTransaction(db, async (trx) => {
    const ticket = await waitingResetRequest(trx, denial.ticket)
    if (denial.content) {
      await addTicketMessage(trx, { ticketId: ticket.id, kind: 'admin', authorId: null, authorName: null, content: denial.content, now: denial.now })
    }
    await setTicketStatus(trx, { ticketId: ticket.id, to: 'rejected', by: 'staff', now: denial.now })
    await recordAudit(
      trx,
      operator,
      { action: 'points_reset.deny', target: { kind: 'ticket', ref: ticket.number }, before: { status: ticket.status }, after: { status: 'rejected', content: denial.content ?? null } },
      denial.now,
    )
  })
}

async function waitingResetRequest(trx: Database, reference: string) {
  const ticket = await findTicketByReference(trx, reference)
  if (ticket.type !== 'pointsReset') throw new RelayError('business_rule', `${ticket.number} is not a points-reset request`)
  // Checked before any points move: a settled request is answered as the ticket machine would.
  if (!canTransition('staff', ticket.status, 'completed')) {
    throw new RelayError('ticket_transition_invalid', `a ${ticket.status} request cannot be decided again`, { from: ticket.status })
  }
  return ticket
}

/**
 * Tops the balance up to the limit, records the reset, completes the ticket (which must still be
 * open: a second approval fails on the ticket's status machine). Returns the points added.
 */
async function applyReset(trx: Database, reset: { userId: string; ticketId: string; automatic: boolean; now: number }): Promise<number> {
  const plan = await lockedPlan(trx, reset.userId, reset.now)
  if (!plan || !isInForce(plan.subscription)) throw new RelayError('business_rule', 'no package in force to reset')
  const amount = Math.max(0, plan.pkg.points_limit - plan.account.balance)
  if (amount > 0) {
    await appendEntry(trx, {
      accountId: plan.account.id,
      userId: reset.userId,
      type: 'earned',
      change: amount,
      reason: pointsReasons.reset,
      now: reset.now,
    })
  }
  await trx
    .insertInto('points_resets')
    .values({ id: newId(), user_id: reset.userId, ticket_id: reset.ticketId, amount, automatic: reset.automatic ? 1 : 0, create_timestamp: reset.now })
    .execute()
  await setTicketStatus(trx, { ticketId: reset.ticketId, to: 'completed', by: 'staff', now: reset.now })
  return amount
}

async function resetSince(trx: Database, userId: string, since: number): Promise<boolean> {
  const row = await trx
    .selectFrom('points_resets')
    .select('id')
    .where('user_id', '=', userId)
    .where('create_timestamp', '>', since)
    .executeTakeFirst()
  return row !== undefined
}
