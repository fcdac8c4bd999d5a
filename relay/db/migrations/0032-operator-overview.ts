import type { Kysely } from 'kysely'

/**
 * The operator console's overview and provider figures (docs/decisions/120-figures-from-hourly-aggregates.md), aggregated in the
 * background like the public figures so that no console view reads the call log:
 * - `ops_call_hours`: per UTC hour, model and provider (0: the call reached none), the calls, the
 *   failed ones, points charged, tokens, and histograms of the relay's added latency and of the
 *   provider's time to first byte (JSON arrays over public-stats/latency-histogram.ts's buckets);
 * - `ops_active_hours`: one row per hour, user and API key (0: an OAuth token) that made a call,
 *   so active users and keys over any run of hours are a count of distinct values;
 * - a second cursor `ops` in `public_stats_state`, starting at the first call, so existing calls
 *   are aggregated by the first runs after the upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ops_call_hours')
    .addColumn('hour_start', 'bigint', (col) => col.notNull())
    .addColumn('model', 'varchar(128)', (col) => col.notNull())
    .addColumn('provider_id', 'bigint', (col) => col.notNull())
    .addColumn('calls', 'integer', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('points', 'bigint', (col) => col.notNull())
    .addColumn('input_tokens', 'bigint', (col) => col.notNull())
    .addColumn('output_tokens', 'bigint', (col) => col.notNull())
    .addColumn('latency_buckets', 'text', (col) => col.notNull())
    .addColumn('first_byte_buckets', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('ops_call_hours_pk', ['hour_start', 'model', 'provider_id'])
    .execute()
  await db.schema
    .createTable('ops_active_hours')
    .addColumn('hour_start', 'bigint', (col) => col.notNull())
    .addColumn('user_id', 'bigint', (col) => col.notNull())
    .addColumn('key_id', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('ops_active_hours_pk', ['hour_start', 'user_id', 'key_id'])
    .execute()
  await (db as Kysely<{ public_stats_state: { name: string; last_call_id: number; ticket_reply_ms: null; ticket_replies: number; update_timestamp: number } }>)
    .insertInto('public_stats_state')
    .values({ name: 'ops', last_call_id: 0, ticket_reply_ms: null, ticket_replies: 0, update_timestamp: 0 })
    .execute()
}
