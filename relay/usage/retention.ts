/**
 * The usage log keeps `CALLS_RETENTION_DAYS` of calls (docs/decisions/111-bounded-history-reads.md). Older `proxy_calls`
 * rows go in small batches along the primary key — ids are snowflakes, so "recorded before the
 * cutoff" is "id below the first id of the cutoff" — each batch its own short statement, the
 * relay's own work given way to between them, so a sweep never holds the database long enough to
 * delay a call. What one sweep leaves, the next takes. Nothing depends on old calls: key quotas
 * are counters on the key, rate limits read the last minute, and the points history links a call
 * only while it exists.
 */
import { setImmediate as yieldToCalls } from 'node:timers/promises'
import { dayMs } from '../contract/days.ts'
import { firstIdAt } from '../db/ids.ts'
import { periodicSweep } from '../periodic-sweep.ts'
import type { RelayServices } from '../services.ts'

const sweepEveryMs = 10 * 60_000
/** Rows per statement. */
export const retentionBatch = 500
/** Statements per sweep. */
const batchesPerSweep = 20

/** Removes up to a sweep's worth of calls older than the retention; returns how many. */
export async function removeOldCalls({ db, clock, config }: RelayServices): Promise<number> {
  const before = firstIdAt(clock.now() - config.callsRetentionDays * dayMs)
  let removed = 0
  for (let batch = 0; batch < batchesPerSweep; batch++) {
    const result = await db
      .deleteFrom('proxy_calls')
      .where('id', 'in', (eb) => eb.selectFrom('proxy_calls').select('id').where('id', '<', before).orderBy('id').limit(retentionBatch))
      .executeTakeFirst()
    const count = Number(result.numDeletedRows)
    removed += count
    if (count < retentionBatch) break
    await yieldToCalls()
  }
  return removed
}

/** Sweeps now and every ten minutes until stopped. */
export function sweepOldCalls(services: RelayServices): { stop(): Promise<void> } {
  return periodicSweep(services.logger, 'usage log retention', sweepEveryMs, () => removeOldCalls(services))
}
