import type { Kysely } from 'kysely'

/**
 * A provider's `model_map`: JSON of `{from, to}` entries, requested names sent upstream under
 * others (relay/proxy/model-mapping.ts); null: none. A call records the name it was sent under in
 * `upstream_model` when that differs from the one it asked for (and was priced by).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('proxy_providers').addColumn('model_map', 'text').execute()
  await db.schema.alterTable('proxy_calls').addColumn('upstream_model', 'text').execute()
}
