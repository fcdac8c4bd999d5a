import type { Kysely } from 'kysely'

/**
 * `proxy_calls_time`: the console's call log (relay/admin/calls.ts) across all users, newest
 * first, and filtered by what has no per-user index (a model, a provider, an outcome). Without
 * it the unfiltered first page sorted every call: 1.3 s over a million. New rows land at its
 * right-hand end, so a relayed call's insert stays cheap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('proxy_calls_time').on('proxy_calls').columns(['create_timestamp', 'id']).execute()
}
