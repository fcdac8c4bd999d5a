import { sql, type Kysely } from 'kysely'

/**
 * Referral rewards (relay/referral). The invitation itself is `users.invited_by`; a reward row
 * is written per paid redemption of an invitee (docs/decisions/052-referral.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('referral_rewards')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('inviter_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('invitee_id', 'bigint', (col) => col.notNull().references('users.id'))
    // A redeem code pays at most once, whatever the concurrency.
    .addColumn('redeem_code_id', 'bigint', (col) => col.notNull().unique())
    .addColumn('kind', 'varchar(8)', (col) => col.notNull())
    .addColumn('inviter_points', 'integer', (col) => col.notNull())
    .addColumn('invitee_points', 'integer', (col) => col.notNull())
    .addColumn('inviter_days', 'integer', (col) => col.notNull())
    .addColumn('invitee_days', 'integer', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  // At most one first-purchase reward per invitee, even when two paid codes are redeemed at once.
  await db.schema
    .createIndex('referral_rewards_first')
    .unique()
    .on('referral_rewards')
    .column('invitee_id')
    .where(sql.ref('kind'), '=', 'first')
    .execute()
  await db.schema.createIndex('referral_rewards_inviter').on('referral_rewards').column('inviter_id').execute()

  // The reward rule, managed with `npm run admin -- referral rule …`; no row means the default.
  await db.schema
    .createTable('referral_rule')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('rule', 'text', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .execute()
}
