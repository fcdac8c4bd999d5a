import type { Kysely } from 'kysely'

/**
 * Which relay instance took each hold (docs/decisions/074-settlements-and-holds.md): a relay that starts again gives back
 * at once the holds its previous run left open, instead of leaving them frozen until
 * STALE_HOLD_MINUTES. Holds from before this migration have no owner and wait for the timeout.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('points_holds').addColumn('owner', 'varchar(255)').execute()
  await db.schema.createIndex('points_holds_owner_open').on('points_holds').columns(['owner', 'settled_timestamp']).execute()
}
