import type { Kysely } from 'kysely'

/**
 * Public figures measured from traffic (docs/decisions/120-figures-from-hourly-aggregates.md):
 * - `proxy_calls.relay_ms`: the time the relay spent on a call before forwarding it (caller check,
 *   pricing, reservation), the client's upload excluded; null for calls recorded before;
 * - `public_call_hours`: per hour and model family, the calls, the failed ones and a histogram of
 *   `relay_ms` (JSON array of counts over fixed buckets, public-stats/latency-histogram.ts);
 * - `public_stats_state`: one row, the last call aggregated and the ticket reply figure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('proxy_calls').addColumn('relay_ms', 'integer').execute()
  await db.schema
    .createTable('public_call_hours')
    // Epoch ms of the hour's start (UTC).
    .addColumn('hour_start', 'bigint', (col) => col.notNull())
    .addColumn('family', 'varchar(64)', (col) => col.notNull())
    .addColumn('calls', 'integer', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('latency_buckets', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('public_call_hours_pk', ['hour_start', 'family'])
    .execute()
  await db.schema
    .createTable('public_stats_state')
    .addColumn('name', 'varchar(16)', (col) => col.primaryKey())
    // The highest proxy_calls id aggregated so far.
    .addColumn('last_call_id', 'bigint', (col) => col.notNull())
    .addColumn('ticket_reply_ms', 'bigint')
    .addColumn('ticket_replies', 'integer', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await (db as Kysely<{ public_stats_state: { name: string; last_call_id: number; ticket_reply_ms: null; ticket_replies: number; update_timestamp: number } }>)
    .insertInto('public_stats_state')
    .values({ name: 'relay', last_call_id: 0, ticket_reply_ms: null, ticket_replies: 0, update_timestamp: 0 })
    .execute()
}
