import { sql, type Kysely } from 'kysely'

/**
 * Two reads that walked a long history (docs/decisions/111-bounded-history-reads.md):
 * - `proxy_calls_user_model`: the usage log filtered by model (relay/usage/log.ts), newest first
 *   along one user's calls of that model, so a page costs what an unfiltered one does, whether the
 *   model is common, rare or never used (which otherwise walked every call of the user);
 * - `points_holds_open`: the holds still open, in id order, the only ones the stale-hold sweep
 *   (relay/proxy/stale-holds.ts) looks at; it read every hold ever taken, each relay at start
 *   and every ten minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('proxy_calls_user_model').on('proxy_calls').columns(['user_id', 'model', 'create_timestamp', 'id']).execute()
  await db.schema.createIndex('points_holds_open').on('points_holds').column('id').where(sql.ref('settled_timestamp'), 'is', null).execute()
}
