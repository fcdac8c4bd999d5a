/**
 * The usage log (docs/decisions/111-bounded-history-reads.md): a user's `proxy_calls`, newest first, read by keyset on
 * (create_timestamp, id) along the index `proxy_calls_user` (or `proxy_calls_key` when one key is
 * asked for, `proxy_calls_user_model` for a model, `proxy_calls_user_outcome` for an outcome
 * other than answered), so any page costs what the first does. The CSV export walks the same
 * keyset a page at a time as the client reads, so it holds one page in memory however long the
 * range.
 */
import { csvLine } from '../contract/csv.ts'
import type { CallOutcomeName, UsageCall, UsageCallDetail, UsageCalls, UsageFilter } from '../contract/usage.ts'
import { usageCursorPattern } from '../contract/usage.ts'
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { Database } from '../db/open-database.ts'
import type { ProxyCallsTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import type { ItemisedCharge } from '../points/model-costs.ts'

export const outcomesOf: Record<CallOutcomeName, Array<ProxyCallsTable['outcome']>> = {
  answered: ['completed'],
  refused: ['refused'],
  // The provider broke off its answer: failed too, from the user's side.
  failed: ['failed', 'cut'],
  abandoned: ['abandoned'],
}

function outcomeName(outcome: ProxyCallsTable['outcome']): CallOutcomeName {
  return outcome === 'completed' ? 'answered' : outcome === 'cut' ? 'failed' : outcome
}

export function cursorOf(call: Pick<UsageCall, 'create_timestamp' | 'id'>): string {
  return `${call.create_timestamp}_${call.id}`
}

/** One page of the user's calls after `cursor` (older), and the cursor of the next. */
export async function usageCalls(db: Database, userId: string, filter: UsageFilter, cursor: string | undefined, pageSize: number): Promise<UsageCalls> {
  const rows = await page(db, userId, filter, cursor, pageSize + 1)
  const items = rows.slice(0, pageSize)
  return { items, next_cursor: rows.length > pageSize ? cursorOf(items.at(-1)!) : null }
}

/** What a row of the log shows of a call (`proxy_calls as c`, `api_keys as k`). */
export const callColumns = [
  'c.id',
  'c.create_timestamp',
  'c.key_id',
  'k.name as key_name',
  'c.client_id',
  'c.api',
  'c.model',
  'c.streamed',
  'c.outcome',
  'c.status',
  'c.refusal',
  'c.input_tokens',
  'c.output_tokens',
  'c.cache_read_tokens',
  'c.cache_write_tokens',
  'c.cache_write_1h_tokens',
  'c.web_search_requests',
  'c.points',
  'c.shortfall_points',
  'c.duration_ms',
  'c.first_byte_ms',
  'c.hold_id',
  'c.charge',
] as const

/** The user's calls as the log shows them; `where` narrows them. */
function selectCalls(db: Database, userId: string) {
  return db.selectFrom('proxy_calls as c').leftJoin('api_keys as k', 'k.id', 'c.key_id').select(callColumns).where('c.user_id', '=', userId)
}

type CallColumns = Awaited<ReturnType<ReturnType<typeof selectCalls>['execute']>>[number]

/** A row read with `callColumns` as the log shows it (its other columns kept). */
export function toUsageCall<Row extends CallColumns>({ hold_id: _, ...row }: Row): Omit<Row, 'hold_id' | 'streamed' | 'outcome' | 'charge'> & UsageCall {
  return { ...row, streamed: row.streamed === 1, outcome: outcomeName(row.outcome), charge: row.charge === null ? null : (JSON.parse(row.charge) as ItemisedCharge) }
}

async function page(db: Database, userId: string, filter: UsageFilter, cursor: string | undefined, limit: number): Promise<UsageCall[]> {
  if (filter.outcome === undefined) return pageOf(db, userId, filter, cursor, limit, undefined)
  // One stored outcome at a time, each along its own range of an index (PostgreSQL does not read an
  // `in` list along an index in order), the pages then merged: a rare outcome, or one never
  // seen, no longer walks the user's other calls (docs/decisions/111-bounded-history-reads.md).
  const pages = await Promise.all(outcomesOf[filter.outcome].map((outcome) => pageOf(db, userId, filter, cursor, limit, outcome)))
  return pages.length === 1 ? pages[0]! : pages.flat().sort(newestFirst).slice(0, limit)
}

export function newestFirst(a: UsageCall, b: UsageCall): number {
  return b.create_timestamp - a.create_timestamp || (BigInt(b.id) > BigInt(a.id) ? 1 : -1)
}

async function pageOf(db: Database, userId: string, filter: UsageFilter, cursor: string | undefined, limit: number, outcome: ProxyCallsTable['outcome'] | undefined): Promise<UsageCall[]> {
  const rows = await selectCalls(db, userId)
    .$if(filter.key_id !== undefined, (qb) => qb.where('c.key_id', '=', filter.key_id!))
    .$if(filter.model !== undefined, (qb) => qb.where('c.model', '=', filter.model!))
    .where((eb) => pageWindow(eb, { outcome, from: filter.from, to: filter.to, cursor }))
    .orderBy('c.create_timestamp', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toUsageCall)
}

/**
 * What the user's log and the console's share of a page's conditions: one stored outcome, the
 * dates, and the calls after the cursor (newest first).
 */
export function pageWindow(
  eb: ExpressionBuilder<{ c: ProxyCallsTable }, 'c'>,
  { outcome, from, to, cursor }: { outcome: ProxyCallsTable['outcome'] | undefined; from: number | undefined; to: number | undefined; cursor: string | undefined },
): Expression<SqlBool> {
  const after = cursor?.match(usageCursorPattern)
  const conditions: Expression<SqlBool>[] = []
  if (outcome !== undefined) conditions.push(eb('c.outcome', '=', outcome))
  // The condition of the partial indexes on outcomes in their own words: SQLite reads a partial
  // index only for a query that states its condition.
  if (outcome !== undefined && outcome !== 'completed') conditions.push(sql<boolean>`c.outcome <> 'completed'`)
  if (from !== undefined) conditions.push(eb('c.create_timestamp', '>=', from))
  if (to !== undefined) conditions.push(eb('c.create_timestamp', '<', to))
  if (after) conditions.push(eb(eb.refTuple('c.create_timestamp', 'c.id'), '<', eb.tuple(Number(after[1]), after[2]!)))
  return eb.and(conditions)
}

/**
 * One of the user's calls with the points rows it wrote (frozen, unfrozen, consumed: its hold's
 * rows), oldest first; another user's call, or none, is a 404.
 */
export async function usageCallDetail(db: Database, userId: string, callId: string): Promise<UsageCallDetail> {
  const row = await selectCalls(db, userId).where('c.id', '=', callId).executeTakeFirst()
  if (!row) throw new RelayError('not_found', 'call not found')
  return { call: toUsageCall(row), entries: await holdEntries(db, row.hold_id, userId) }
}

/** The points rows a call's hold wrote, oldest first; none without a hold. */
export async function holdEntries(db: Database, holdId: string | null, userId: string): Promise<UsageCallDetail['entries']> {
  if (holdId === null) return []
  return db
    .selectFrom('points_ledger')
    .select(['id', 'type', 'change', 'balance_after', 'create_timestamp'])
    .where('hold_id', '=', holdId)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
}

/** Rows the CSV export reads at a time. */
const exportPage = 500

export const csvColumns = [
  'time_utc',
  'request_id',
  'key',
  'model',
  'api',
  'outcome',
  'status',
  'refusal',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'cache_write_1h_tokens',
  'web_search_requests',
  'points',
  'shortfall_points',
  'duration_ms',
  'first_byte_ms',
  'charge',
] as const

/** A call's cells under `csvColumns`. */
export function csvCells(call: UsageCall): Array<string | number> {
  return [
    new Date(call.create_timestamp).toISOString(),
    call.id,
    call.key_name ?? call.client_id ?? '',
    call.model,
    call.api,
    call.outcome,
    call.status,
    call.refusal ?? '',
    call.input_tokens,
    call.output_tokens,
    call.cache_read_tokens,
    call.cache_write_tokens,
    call.cache_write_1h_tokens,
    call.web_search_requests,
    call.points,
    call.shortfall_points,
    call.duration_ms,
    call.first_byte_ms ?? '',
    call.charge ? chargeText(call.charge) : '',
  ]
}

/** The itemised charge in one cell: `input 2000 × 200 = 0.4; … (long context ×200%/150%)`. */
function chargeText(charge: ItemisedCharge): string {
  const lines = charge.lines.map((line) => `${line.item} ${line.quantity} × ${line.rate}${line.percent === 100 ? '' : ` × ${line.percent}%`} = ${Number(line.points.toFixed(6))}`)
  return `${charge.price}: ${lines.join('; ')} → ${charge.points}`
}

/** Every call matching the filter as CSV (header first), read a page at a time as the consumer pulls. */
export function usageCsv(db: Database, userId: string, filter: UsageFilter): ReadableStream<Uint8Array> {
  return callsCsv(csvColumns, (cursor, limit) => page(db, userId, filter, cursor, limit), csvCells)
}

/**
 * Calls as CSV (header first, times in UTC), `read` a page at a time by the keyset cursor as the
 * consumer pulls, so one page is in memory however long the range.
 */
export function callsCsv<Call extends UsageCall>(
  header: readonly string[],
  read: (cursor: string | undefined, limit: number) => Promise<Call[]>,
  cells: (call: Call) => Array<string | number>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let cursor: string | undefined
  let started = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true
          // A byte-order mark, so spreadsheet programs read key names in Chinese as UTF-8.
          controller.enqueue(encoder.encode('\uFEFF' + csvLine(header) + '\r\n'))
          return
        }
        const rows = await read(cursor, exportPage)
        if (rows.length > 0) {
          controller.enqueue(encoder.encode(rows.map((row) => csvLine(cells(row).map(String)) + '\r\n').join('')))
          cursor = cursorOf(rows.at(-1)!)
        }
        if (rows.length < exportPage) controller.close()
      },
    },
    // One page waiting at most: the next is read only once the client has taken this one.
    { highWaterMark: 1 },
  )
}
