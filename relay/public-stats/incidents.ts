/** Incidents the operator posts on the status page (`incident add|list|resolve`); the text is the operator's, as written. */
import { z } from 'zod'
import { isId } from '../contract/ids.ts'
import type { PublicStatus } from '../contract/public.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'

export type Incident = PublicStatus['incidents'][number]

export const newIncidentSchema = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().max(4000).optional(),
})

/** Bad input throws an Error saying what is wrong. */
export async function addIncident(db: Database, now: number, input: z.input<typeof newIncidentSchema>): Promise<Incident> {
  const parsed = newIncidentSchema.safeParse(input)
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error))
  const row = { id: newId(), title: parsed.data.title, body: parsed.data.body || null, start_timestamp: now, resolved_timestamp: null }
  await db.insertInto('incidents').values(row).execute()
  return row
}

/** Newest first: those still open, and those that began since `since` (all when omitted). */
export async function listIncidents(db: Database, { since }: { since?: number } = {}): Promise<Incident[]> {
  return db
    .selectFrom('incidents')
    .select(['id', 'title', 'body', 'start_timestamp', 'resolved_timestamp'])
    .$if(since !== undefined, (qb) => qb.where((eb) => eb.or([eb('resolved_timestamp', 'is', null), eb('start_timestamp', '>=', since!)])))
    .orderBy('start_timestamp', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** Marks an open incident resolved; throws when there is no such open incident. */
export async function resolveIncident(db: Database, id: string, now: number): Promise<void> {
  if (!isId(id)) throw new Error(`no incident ${id}`)
  const result = await db
    .updateTable('incidents')
    .set({ resolved_timestamp: now })
    .where('id', '=', id)
    .where('resolved_timestamp', 'is', null)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new Error(`no open incident ${id}`)
}
