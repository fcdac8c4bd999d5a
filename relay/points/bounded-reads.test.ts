/**
 * The reads a page makes of a user's points stay bounded by what it shows, however long their
 * history (docs/decisions/111-bounded-history-reads.md): every statement they run on the ledger, its daily rows and the
 * call log is an index search, never a scan of the table. Checked with the database's own plan
 * (EXPLAIN QUERY PLAN on SQLite; EXPLAIN with sequential scans discouraged on PostgreSQL, whose
 * planner would otherwise read a test's few rows straight through).
 */
import { CompiledQuery, type KyselyPlugin, type QueryId, type QueryResult, type UnknownRow } from 'kysely'
import { afterEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { historyOverDays } from '../../tests/fixtures/history.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { quickUser, redeemFresh, servicesOf } from '../../tests/fixtures/points.ts'
import { isPostgres, type Database } from '../db/open-database.ts'
import { releaseStaleHolds } from '../proxy/stale-holds.ts'
import { usageCalls } from '../usage/log.ts'
import { pointsHistory } from './history.ts'
import { freeze, settle } from './ledger.ts'
import { pointsBlock } from './summary.ts'
import { weeklyUsage } from './weekly-usage.ts'

const watched = ['points_ledger', 'points_usage_days', 'proxy_calls']

/**
 * `db`, remembering every statement it compiles, and counting the rows that those reading the
 * ledger return.
 */
function recording(db: Database): { db: Database; statements: CompiledQuery[]; ledgerRows: { returned: number } } {
  const statements: CompiledQuery[] = []
  const compiled = new Map<QueryId, CompiledQuery>()
  const ledgerRows = { returned: 0 }
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      const statement = db.getExecutor().compileQuery(node, queryId)
      statements.push(statement)
      compiled.set(queryId, statement)
      return node
    },
    transformResult: async ({ result, queryId }): Promise<QueryResult<UnknownRow>> => {
      if (/from "points_ledger"/.test(compiled.get(queryId)?.sql ?? '')) ledgerRows.returned += result.rows.length
      return result
    },
  }
  return { db: db.withPlugin(plugin), statements, ledgerRows }
}

/** The plan of `statement`, one step a line. */
async function planOf(db: Database, statement: CompiledQuery): Promise<string[]> {
  if (isPostgres(db)) {
    return db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'))
      const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]))
      return plan.rows.map((row) => row['QUERY PLAN'])
    })
  }
  const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]))
  return plan.rows.map((row) => row.detail)
}

/** The plan steps of `statement` that read a watched table without an index. */
async function scans(db: Database, statement: CompiledQuery): Promise<string[]> {
  const plan = await planOf(db, statement)
  return isPostgres(db)
    ? plan.filter((line) => watched.some((table) => line.includes(`Seq Scan on ${table}`)))
    : plan.filter((detail) => watched.some((table) => new RegExp(`^SCAN ${table}\\b`).test(detail)))
}

/**
 * The indexes `statement` reads. An index read can still walk a whole history (a filter on a
 * column the index lacks), so a read bounded by a narrower index is held to that index.
 */
async function indexesRead(db: Database, statement: CompiledQuery): Promise<string[]> {
  const pattern = isPostgres(db) ? /Index (?:Only )?Scan(?: Backward)? using (\w+)|Bitmap Index Scan on (\w+)/ : /USING (?:COVERING )?INDEX (\w+)/
  return (await planOf(db, statement)).flatMap((line) => {
    const match = line.match(pattern)
    return match ? [(match[1] ?? match[2])!] : []
  })
}

describeEachDatabase('bounded reads of a long history', (ctx) => {
  afterEach(() => expectLedgerInvariants(ctx.relay.db))

  it('reads the dashboard figures, the points summary and the history through indexes only', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const services = servicesOf(ctx)
    for (let i = 0; i < 12; i++) {
      const hold = await freeze(services, { userId: user.id, amount: 20, model: 'claude-sonnet-4-5' })
      await settle(services, { holdId: hold.holdId, actual: 3 + i })
    }
    const { db, statements } = recording(ctx.relay.db)
    const now = ctx.clock.now()
    const [week, block, history, secondPage] = await Promise.all([
      weeklyUsage(db, user.id, now),
      pointsBlock(db, user.id, now, 'en'),
      pointsHistory(db, user.id, { page: 1, pageSize: 5 }),
      pointsHistory(db, user.id, { page: 3, pageSize: 5 }),
    ])
    const used = Array.from({ length: 12 }, (_, i) => 3 + i).reduce((a, b) => a + b, 0)
    expect(week.days.at(-1)!.consumed_points).toBe(used)
    expect(block.total_used_points).toBe(used)
    // The redemption and twelve calls: one line each, newest first, the calls' net charges.
    expect(history.total).toBe(13)
    expect(history.items.map((item) => item.change)).toEqual([-14, -13, -12, -11, -10])
    expect(secondPage.items.map((item) => item.type)).toEqual(['consumed', 'consumed', 'earned'])
    expect(statements.length).toBeGreaterThan(5)
    for (const statement of statements) expect({ sql: statement.sql, scans: await scans(ctx.relay.db, statement) }).toEqual({ sql: statement.sql, scans: [] })
  })

  it('reads the usage log by model and by outcome, and the holds still open, each along its own index', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    const services = servicesOf(ctx)
    for (let i = 0; i < 3; i++) await settle(services, { holdId: (await freeze(services, { userId: user.id, amount: 20, model: 'claude-sonnet-4-5' })).holdId, actual: 3 })
    await freeze(services, { userId: user.id, amount: 20, model: 'claude-sonnet-4-5' })
    const { db, statements } = recording(ctx.relay.db)
    // A model used or never used, from the first page or a deep one: never a walk of the user's
    // other calls. (With a date range too, SQLite walks the range instead: docs/decisions/111-bounded-history-reads.md.)
    await usageCalls(db, user.id, { model: 'claude-sonnet-4-5' }, undefined, 50)
    await usageCalls(db, user.id, { model: 'never-used' }, `${ctx.clock.now()}_1`, 50)
    const byModel = statements.splice(0)
    expect(byModel).toHaveLength(2)
    for (const statement of byModel) expect({ sql: statement.sql, indexes: await indexesRead(ctx.relay.db, statement) }).toEqual({ sql: statement.sql, indexes: expect.arrayContaining(['proxy_calls_user_model']) })
    // An outcome other than answered, seen or never seen, from the first page or a deep one: its own
    // range of the partial index, "failed" as two ranges (docs/decisions/111-bounded-history-reads.md).
    await usageCalls(db, user.id, { outcome: 'failed' }, undefined, 50)
    await usageCalls(db, user.id, { outcome: 'abandoned' }, `${ctx.clock.now()}_1`, 50)
    const byOutcome = statements.splice(0)
    expect(byOutcome).toHaveLength(3)
    for (const statement of byOutcome) expect({ sql: statement.sql, indexes: await indexesRead(ctx.relay.db, statement) }).toEqual({ sql: statement.sql, indexes: expect.arrayContaining(['proxy_calls_user_outcome']) })
    // The stale-hold sweep, when a relay starts and then: the open holds only, not every hold ever taken.
    await releaseStaleHolds({ ...services, db }, { startedAt: ctx.clock.now() - 1 })
    await releaseStaleHolds({ ...services, db })
    const sweeps = statements.filter((statement) => /from "points_holds"/.test(statement.sql) && !/^update/.test(statement.sql))
    expect(sweeps).toHaveLength(2)
    // The whole of that partial index, a walk of the open holds alone, is the bound (SQLite calls it a SCAN).
    for (const statement of sweeps) expect({ sql: statement.sql, indexes: await indexesRead(ctx.relay.db, statement) }).toEqual({ sql: statement.sql, indexes: ['points_holds_open'] })
  })


  it('reads any page of a long history in about the rows of page 2: a deep one from its day, its place in that day counted along an index', async () => {
    const user = await quickUser(ctx)
    await redeemFresh(ctx, user)
    await historyOverDays(ctx, user, { days: 4, instants: 45 })
    const history = await ctx.relay.db.selectFrom('points_ledger').select((eb) => eb.fn.countAll<number | string>().as('rows')).where('user_id', '=', user.id).executeTakeFirstOrThrow()
    const { db, statements, ledgerRows } = recording(ctx.relay.db)
    const pageSize = 10
    const read = async (page: number) => {
      statements.splice(0)
      ledgerRows.returned = 0
      const { total } = await pointsHistory(db, user.id, { page, pageSize })
      return { total, rows: ledgerRows.returned, statements: statements.splice(0) }
    }
    const second = await read(2)
    expect(Number(history.rows)).toBeGreaterThan(10 * second.rows)
    // Each statement along the index that bounds it: the days; the rows that stand for lines,
    // within one day; the user's rows from where the page starts (a LIMIT); the page's calls by their holds.
    const indexFor = (statement: string) =>
      [/from "points_usage_days"/, /type = 'unfrozen'/, /from "points_ledger" where "user_id" = \S+ (and "create_timestamp" < \S+ )?order by/, /"hold_id" in \(/]
        .map((pattern, i) => (pattern.test(statement) ? [/^(points_usage_days_pk|sqlite_autoindex_points_usage_days_1)$/, /^points_ledger_user_lines$/, /^points_ledger_user$/, /^(points_ledger_hold|proxy_calls_hold|points_holds_open)$/][i] : null))
        .find(Boolean)
    for (let page = 1; page <= Math.ceil(second.total / pageSize) + 1; page++) {
      const { rows, statements: pageStatements } = await read(page)
      expect({ page, rows: Math.min(rows, 2 * second.rows) }).toEqual({ page, rows })
      for (const statement of pageStatements) {
        const index = indexFor(statement.sql)
        const indexes = await indexesRead(ctx.relay.db, statement)
        expect({ sql: statement.sql, indexes: index ? indexes.filter((name) => !index.test(name)) : 'no index expected' }).toEqual({ sql: statement.sql, indexes: [] })
        expect({ sql: statement.sql, read: indexes.length > 0, scans: await scans(ctx.relay.db, statement) }).toEqual({ sql: statement.sql, read: true, scans: [] })
      }
    }
  })
})
