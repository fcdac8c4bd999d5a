import { sql, type Kysely } from 'kysely'

/**
 * The operators' call log (relay/admin/calls.ts) reads every user's calls newest first by
 * (create_timestamp, id): unfiltered and by time along `proxy_calls_time`, by model along
 * `proxy_calls_model`, by provider along `proxy_calls_provider`, by an outcome other than
 * answered along the partial `proxy_calls_outcome` (answered calls write no entry, as in 0046).
 * Users and keys keep their own indexes (0025, 0026).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('proxy_calls_time').on('proxy_calls').columns(['create_timestamp', 'id']).execute()
  await db.schema.createIndex('proxy_calls_model').on('proxy_calls').columns(['model', 'create_timestamp', 'id']).execute()
  await db.schema.createIndex('proxy_calls_provider').on('proxy_calls').columns(['provider_id', 'create_timestamp', 'id']).execute()
  await db.schema
    .createIndex('proxy_calls_outcome')
    .on('proxy_calls')
    .columns(['outcome', 'create_timestamp', 'id'])
    .where(sql.ref('outcome'), '<>', sql.lit('completed'))
    .execute()
}
