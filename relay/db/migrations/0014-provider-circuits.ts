import type { Kysely } from 'kysely'

/**
 * Provider circuits as the relays report them, for the operator CLI's `provider list`
 * (relay/proxy/provider-circuits.ts, docs/decisions/073-upstream-calls.md): one row per relay process and open
 * circuit. The circuits themselves live in each relay's memory; routing never reads this table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('proxy_provider_circuits')
    // The reporting relay process: an id it draws at start.
    .addColumn('relay_id', 'varchar(32)', (col) => col.notNull())
    // No reference: a report outliving its provider is simply not shown.
    .addColumn('provider_id', 'bigint', (col) => col.notNull())
    // Skipped until then; half-open after.
    .addColumn('open_until', 'bigint', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('proxy_provider_circuits_pk', ['relay_id', 'provider_id'])
    .execute()
}
