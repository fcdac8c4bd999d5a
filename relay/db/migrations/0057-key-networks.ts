import type { Kysely } from 'kysely'

/**
 * An API key's `allowed_ips`: a JSON array of addresses and CIDR ranges it may be used from
 * (relay/keys/networks.ts); null: from anywhere.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('allowed_ips', 'text').execute()
}
