import type { Kysely } from 'kysely'

/**
 * Controls an owner sets on each API key (relay/keys/limits.ts, docs/decisions/050-api-keys-and-their-limits.md): a switch, an
 * expiry, points quotas (total and per UTC+8 day), the models it may call, requests per minute
 * and calls at once. Null means no limit. The key also counts the points its calls were charged
 * (`points_used`, and `day_points_used` for the day `points_day`), written with each call's
 * record, so a quota is one read of the key, not a sum over its calls.
 *
 * `api_key_leases`: one row per call in flight of a key with a limit, taken before the call is
 * charged and removed in the transaction that records it, so limits hold across relays sharing a
 * database. No reference to `api_keys`: a lease is written and removed on the calls' path and
 * must not lock the key's row.
 *
 * `proxy_calls` gains `refusal` (the relay's reason when it refused the call itself, null when
 * the call was forwarded) and an index per key, which rate limits and the usage log read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['disabled_timestamp', 'expires_timestamp'] as const) {
    await db.schema.alterTable('api_keys').addColumn(column, 'bigint').execute()
  }
  for (const column of ['points_quota', 'daily_points_quota', 'rpm_limit', 'concurrency_limit'] as const) {
    await db.schema.alterTable('api_keys').addColumn(column, 'integer').execute()
  }
  // JSON array of model patterns (`*` for any characters), as providers' and prices' patterns.
  await db.schema.alterTable('api_keys').addColumn('allowed_models', 'text').execute()
  await db.schema.alterTable('api_keys').addColumn('points_used', 'bigint', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('api_keys').addColumn('day_points_used', 'bigint', (col) => col.notNull().defaultTo(0)).execute()
  // Days since the epoch in UTC+8 (docs/decisions/021-days-and-times.md).
  await db.schema.alterTable('api_keys').addColumn('points_day', 'integer', (col) => col.notNull().defaultTo(0)).execute()

  await db.schema
    .createTable('api_key_leases')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('key_id', 'bigint', (col) => col.notNull())
    // The call's likely cost, counted against the key's quotas while it runs.
    .addColumn('points', 'integer', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('api_key_leases_key').on('api_key_leases').columns(['key_id', 'create_timestamp']).execute()

  await db.schema.alterTable('proxy_calls').addColumn('refusal', 'varchar(32)').execute()
  await db.schema.createIndex('proxy_calls_key').on('proxy_calls').columns(['key_id', 'create_timestamp', 'id']).execute()
}
