import type { Kysely } from 'kysely'

/**
 * The usage log (relay/usage, docs/decisions/111-bounded-history-reads.md): each call's time to its first byte and
 * the hold its points were reserved by (the points history shows a call's ledger rows as one line
 * linking to the call), and an index that pages a user's calls newest first by (time, id) — the
 * log's keyset — replacing the one on (user, time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Null for a call that got no answer (refused by the relay, or no provider answered).
  await db.schema.alterTable('proxy_calls').addColumn('first_byte_ms', 'integer').execute()
  // No reference: holds are internal to the ledger; null for a fixed-price or refused call.
  await db.schema.alterTable('proxy_calls').addColumn('hold_id', 'bigint').execute()
  await db.schema.createIndex('proxy_calls_hold').on('proxy_calls').column('hold_id').execute()
  await db.schema.dropIndex('proxy_calls_user').execute()
  await db.schema.createIndex('proxy_calls_user').on('proxy_calls').columns(['user_id', 'create_timestamp', 'id']).execute()
}
