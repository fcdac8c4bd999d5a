import type { Kysely } from 'kysely'

/**
 * A user's or team's latest subscription, read on every relayed call (points/plan.ts), is found
 * by `(user_id, id)` and `(team_id, id)`: with `user_id` or `team_id` alone SQLite sorted the
 * owner's subscriptions in a temporary B-tree on each read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('subscriptions_user').execute()
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id', 'id']).execute()
  await db.schema.dropIndex('subscriptions_team').execute()
  await db.schema.createIndex('subscriptions_team').on('subscriptions').columns(['team_id', 'id']).execute()
}
