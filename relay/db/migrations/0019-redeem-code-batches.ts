import type { Kysely } from 'kysely'

/**
 * Redeem codes operators can follow and withdraw (docs/decisions/023-packages-teams-codes-resets.md): each generation is a batch
 * (codes from before this migration have none), and a code not yet used can be revoked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('redeem_codes').addColumn('batch_id', 'bigint').execute()
  await db.schema.alterTable('redeem_codes').addColumn('revoked_timestamp', 'bigint').execute()
  await db.schema.createIndex('redeem_codes_batch').on('redeem_codes').column('batch_id').execute()
}
