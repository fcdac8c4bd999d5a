/**
 * The operators' audit log (docs/decisions/116-operator-audit-log.md): who did what to which target, when, from where,
 * and the state before and after. Service functions that operators call (from the console or the
 * CLI) take an `Operator` and record their action with `recordAudit` in the transaction of the
 * change itself, so a change is never without its row nor a row without its change.
 */
import { userInfo } from 'node:os'
import type { AuditAction, AuditEntry, AuditTargetKind } from '../contract/admin.ts'
import { dayMs } from '../contract/days.ts'
import { pageOffset, type PageQuery, type Paged } from '../contract/paging.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { UserRow } from '../users/users.ts'

/** The person behind an action: an admin in the console, or whoever ran the CLI. */
export type Operator =
  | { kind: 'admin'; userId: string; name: string; clientIp: string }
  | { kind: 'cli'; name: string }

export function consoleOperator(user: Pick<UserRow, 'id' | 'username'>, clientIp: string): Extract<Operator, { kind: 'admin' }> {
  return { kind: 'admin', userId: user.id, name: user.username, clientIp }
}

/** The OS account running the CLI: the only identity a terminal has. */
export function cliOperator(env: Record<string, string | undefined> = process.env): Operator {
  let name: string | undefined
  try {
    name = userInfo().username
  } catch {
    // A container user without a passwd entry: fall back to the shell's word for it.
    name = env.USER ?? env.LOGNAME
  }
  return { kind: 'cli', name: name || 'unknown' }
}

export interface AuditRecord {
  action: AuditAction
  target: { kind: AuditTargetKind; ref: string }
  /** Plain data, written as JSON; omitted when there is no such state (a creation has no before). */
  before?: unknown
  after?: unknown
}

export async function recordAudit(db: Database, operator: Operator, record: AuditRecord, now: number): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      actor_kind: operator.kind,
      actor_id: operator.kind === 'admin' ? operator.userId : null,
      actor_name: operator.name,
      client_ip: operator.kind === 'admin' ? operator.clientIp : null,
      action: record.action,
      target_kind: record.target.kind,
      target_ref: record.target.ref,
      before: record.before === undefined ? null : JSON.stringify(record.before),
      after: record.after === undefined ? null : JSON.stringify(record.after),
      create_timestamp: now,
    })
    .execute()
}

export interface AuditFilter extends PageQuery {
  actor?: string
  action?: AuditAction
  target?: string
  /** YYYY-MM-DD, UTC, inclusive. */
  from?: string
  to?: string
}

/** Newest first. */
export async function listAudit(db: Database, filter: AuditFilter): Promise<Paged<AuditEntry>> {
  let query = db.selectFrom('audit_log')
  if (filter.actor) query = query.where((eb) => eb(eb.fn('lower', ['actor_name']), '=', filter.actor!.toLowerCase()))
  if (filter.action) query = query.where('action', '=', filter.action)
  if (filter.target) query = query.where('target_ref', '=', filter.target)
  if (filter.from) query = query.where('create_timestamp', '>=', Date.parse(`${filter.from}T00:00:00Z`))
  if (filter.to) query = query.where('create_timestamp', '<', Date.parse(`${filter.to}T00:00:00Z`) + dayMs)
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id', 'desc').limit(filter.pageSize).offset(pageOffset(filter)).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map((row) => ({ ...row, action: row.action as AuditAction, target_kind: row.target_kind as AuditTargetKind })),
    total: Number(count.total),
    page: filter.page,
    pageSize: filter.pageSize,
  }
}
