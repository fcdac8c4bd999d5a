import type { Kysely } from 'kysely'

/**
 * A team owner's caps on each member's points per hour and per UTC+8 day (keys/limits.ts,
 * docs/decisions/023-packages-teams-codes-resets.md), null for none, and the member's counters for the current hour and day,
 * written with each call's record as a key's are.
 *
 * A capped member's call in flight is counted by a lease as a limited key's is, with or without a
 * key (Claude Code may sign in with OAuth), so `api_key_leases` becomes `call_leases` with both
 * columns nullable. Leases live only while their calls run: the old table is dropped, not copied
 * (a call in flight during the upgrade goes uncounted for its few seconds).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['hourly_points_cap', 'daily_points_cap'] as const) {
    await db.schema.alterTable('team_members').addColumn(column, 'integer').execute()
  }
  await db.schema.alterTable('team_members').addColumn('hour_points_used', 'bigint', (col) => col.notNull().defaultTo(0)).execute()
  // Hours since the epoch.
  await db.schema.alterTable('team_members').addColumn('points_hour', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('team_members').addColumn('day_points_used', 'bigint', (col) => col.notNull().defaultTo(0)).execute()
  // Days since the epoch in UTC+8 (docs/decisions/021-days-and-times.md).
  await db.schema.alterTable('team_members').addColumn('points_day', 'integer', (col) => col.notNull().defaultTo(0)).execute()

  await db.schema.dropTable('api_key_leases').execute()
  await db.schema
    .createTable('call_leases')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('key_id', 'bigint')
    // The caller's user id when they are a team member under a cap.
    .addColumn('member_id', 'bigint')
    .addColumn('points', 'integer', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('call_leases_key').on('call_leases').columns(['key_id', 'create_timestamp']).execute()
  await db.schema.createIndex('call_leases_member').on('call_leases').columns(['member_id', 'create_timestamp']).execute()
  // Stale leases are swept by age (proxy/stale-holds.ts).
  await db.schema.createIndex('call_leases_time').on('call_leases').column('create_timestamp').execute()
}
