import type { Kysely } from 'kysely'

/**
 * A hold's answered mark (migration 0062, proxy/answered-holds.ts) is needed only while the hold
 * is open: settling a hold now clears it (points/ledger.ts, points/relay_settle.sql). The marks
 * that settled holds kept until now, about a kilobyte per answered call, go too: one pass over the
 * holds, which rewrites each marked one. Holds that a relay of the previous version settles during
 * a rolling upgrade keep their marks, unread, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Typed here: migrations see the schema as it was when written, not today's `Tables`.
  const typed = db as Kysely<{ points_holds: { settled_timestamp: number | null; answered: string | null } }>
  await typed.updateTable('points_holds').set({ answered: null }).where('settled_timestamp', 'is not', null).where('answered', 'is not', null).execute()
}
