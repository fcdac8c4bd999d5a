import type { Kysely } from 'kysely'

/**
 * A package's `listing` (subscriptions/operator-packages.ts): `listed` on /pricing and open to new
 * redeem codes; `unlisted` off both; `archived` also out of the console's default list. The
 * subscriptions and codes that refer to a package are unaffected by it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('packages').addColumn('listing', 'text', (col) => col.notNull().defaultTo('listed')).execute()
}
