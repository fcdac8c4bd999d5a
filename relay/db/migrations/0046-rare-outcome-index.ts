import { sql, type Kysely } from 'kysely'

/**
 * `proxy_calls_user_outcome`: the usage log filtered by an outcome other than answered (refused,
 * failed, abandoned), newest first along one user's calls of that outcome
 * (docs/decisions/111-bounded-history-reads.md). Partial: answered calls, nearly all of them,
 * write no entry, so a relayed call's path costs what it did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('proxy_calls_user_outcome')
    .on('proxy_calls')
    .columns(['user_id', 'outcome', 'create_timestamp', 'id'])
    .where(sql.ref('outcome'), '<>', sql.lit('completed'))
    .execute()
}
