/**
 * The durable queue's machinery (docs/decisions/125-mail-and-announcements.md), shared by the
 * mails (`mail_queue`, queue.ts) and the alert webhooks' messages (`webhook_deliveries`,
 * alerts/deliveries.ts): both tables have the same queue columns, and this is the one code that
 * claims, retries and records their rows.
 *
 * - Once per event: each row has a unique dedupe key, and queueing one that exists does nothing.
 * - Once per send: a claim is one UPDATE of rows still due, which sets them `sending` and moves
 *   `next_attempt_at` to the end of the claim; a second relay's UPDATE re-reads a row it waited
 *   for and finds it no longer due (PostgreSQL re-checks the WHERE after the row lock; SQLite has
 *   one writer). Only a relay that dies between the receiver's answer and marking the row sent
 *   leaves a message that is sent again when its claim runs out.
 * - Nothing lost: a failed delivery puts the row back, due again after 30 s, doubling per attempt
 *   up to an hour; after `maxAttempts` (about two days) it is `failed` and logged.
 */
import type { Database } from '../db/open-database.ts'
import type { MailQueueTable } from '../db/schema.ts'
import type { RelayServices } from '../services.ts'

export const firstRetryMs = 30_000
export const longestRetryMs = 3_600_000
export const maxAttempts = 50
/** A claimed row not marked sent by then is due again (its relay died mid-send). */
const claimMs = 5 * 60_000
const batchSize = 20

/** The tables that are queues, with what their rows are called in the log. */
export type QueueTable = 'mail_queue' | 'webhook_deliveries'
const logNames: Record<QueueTable, string> = { mail_queue: 'mail', webhook_deliveries: 'webhook' }
export type QueueStatus = MailQueueTable['status']
type QueueColumns = Pick<MailQueueTable, 'id' | 'status' | 'attempts' | 'next_attempt_at' | 'claimed_by' | 'last_error' | 'sent_timestamp'>

/** What a delivery came to: sent, or not to be sent any more (its user or webhook gone). A failure throws. */
export type Delivered = 'sent' | 'skipped'

/** After `attempts` failures: 30 s, 1 min, 2 min … at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(longestRetryMs, firstRetryMs * 2 ** Math.max(0, attempts - 1))
}

/**
 * Both tables share the queue columns; Kysely is told it is `mail_queue` only for the statements
 * below, which name no other column.
 */
function queueOf(table: QueueTable): 'mail_queue' {
  return table as 'mail_queue'
}

/** Claims up to `limit` due rows of `table` for `worker` in one statement (see above). */
export async function claimDue<T extends QueueColumns>(db: Database, table: QueueTable, worker: string, now: number, limit = batchSize): Promise<T[]> {
  const due = db
    .selectFrom(queueOf(table))
    .select('id')
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
  const rows = await db
    .updateTable(queueOf(table))
    .set((eb) => ({ status: 'sending', claimed_by: worker, next_attempt_at: now + claimMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .execute()
  return rows as unknown as T[]
}

/**
 * Delivers every row of `table` due now, batch by batch, with `deliver`; returns how many were
 * sent. `describe` names a row in the log lines of its failures.
 */
export async function deliverDue<T extends QueueColumns>(
  services: Pick<RelayServices, 'db' | 'clock' | 'config' | 'logger'>,
  table: QueueTable,
  deliver: (row: T) => Promise<Delivered>,
  describe: (row: T) => Record<string, unknown>,
): Promise<number> {
  const { db, clock, config, logger } = services
  // Only while the claim is still ours: a row another relay took over after our claim ran out is left alone.
  const finish = (row: T, set: Partial<Omit<QueueColumns, 'id'>>) =>
    db.updateTable(queueOf(table)).set(set).where('id', '=', row.id).where('claimed_by', '=', config.instance).where('status', '=', 'sending').execute()
  let sent = 0
  for (;;) {
    const rows = await claimDue<T>(db, table, config.instance, clock.now())
    for (const row of rows) {
      let delivered: Delivered
      try {
        delivered = await deliver(row)
      } catch (error) {
        const message = String(error).slice(0, 500)
        const failed = row.attempts >= maxAttempts
        logger[failed ? 'error' : 'warn'](`${logNames[table]} delivery failed`, { id: row.id, ...describe(row), attempts: row.attempts, error: message, gave_up: failed })
        await finish(row, { status: failed ? 'failed' : 'pending', next_attempt_at: clock.now() + retryDelayMs(row.attempts), last_error: message })
        continue
      }
      if (delivered === 'skipped') {
        await finish(row, { status: 'skipped' })
      } else {
        await finish(row, { status: 'sent', sent_timestamp: clock.now(), last_error: null })
        sent++
      }
    }
    if (rows.length < batchSize) return sent
  }
}
