/**
 * A batch of the most redeem codes one batch may hold (10,000), made as the console makes it: the
 * admin call `POST /api/admin/redeem-codes` on a real relay (codes drawn and hashed, inserted in
 * one transaction with the batch's audit row, the reply sealed for its form key), then the same
 * call again with the same key, as the CSV download sends it (answered from the sealed reply).
 * On a temporary SQLite file, or with BENCH_DATABASE=postgres a temporary schema of
 * TEST_DATABASE_URL. BENCH_RUNS batches (default 5); prints each and the median, asserts nothing.
 */
import { performance } from 'node:perf_hooks'
import { adminEndpoints, redeemBatchMax } from '../relay/contract/admin.ts'
import { createTestDatabase } from '../tests/fixtures/databases.ts'
import { quickUser } from '../tests/fixtures/points.ts'
import { startTestRelay } from '../tests/fixtures/relay-harness.ts'

const runs = Number(process.env.BENCH_RUNS ?? 5)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main(): Promise<void> {
  const kind = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite'
  const database = await createTestDatabase(kind)
  // Replies are checked against their schema in tests only, as in production.
  const ctx = await startTestRelay(database, { checkResponses: false })
  try {
    const operator = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
    const made: number[] = []
    const replayed: number[] = []
    for (let run = 1; run <= runs; run++) {
      const send = async () => {
        const start = performance.now()
        const reply = await ctx.request('POST', adminEndpoints.generateCodes.path, {
          token: operator.token,
          body: { package_code: 'PERSONAL', count: redeemBatchMax },
          headers: { 'idempotency-key': `bench-batch-${run}-${process.pid}` },
        })
        if (reply.status !== 200 || reply.body.data.codes.length !== redeemBatchMax) throw new Error(`batch refused: ${reply.text}`)
        return performance.now() - start
      }
      made.push(await send())
      replayed.push(await send())
      console.log(`run ${run}: made ${made.at(-1)!.toFixed(0)} ms, replayed ${replayed.at(-1)!.toFixed(0)} ms`)
    }
    console.log(`${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${redeemBatchMax} codes, median of ${runs}: made ${median(made).toFixed(0)} ms, replayed ${median(replayed).toFixed(0)} ms`)
  } finally {
    await ctx.close()
    await database.dispose()
  }
}

await main()
