import type { Kysely } from 'kysely'

/**
 * What a hold is to be settled with if its relay is lost once the call's answer has started
 * (proxy/answered-holds.ts, docs/decisions/074-settlements-and-holds.md): the call's settlement as
 * JSON, written before the answer reaches the client. Null until then, and for holds from before
 * this migration, which are given back as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('points_holds').addColumn('answered', 'text').execute()
}
