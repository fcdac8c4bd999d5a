/**
 * Incidents the operator posts on the status page, from the console (`/admin/incidents`) and the
 * CLI (`incident add|update|list|resolve`) alike; each change and its audit row in one transaction.
 * The text is the operator's, as written.
 */
import { z } from 'zod'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { incidentBody } from '../contract/admin.ts'
import type { PublicStatus } from '../contract/public.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'

export type Incident = PublicStatus['incidents'][number]

function parsed(input: z.input<typeof incidentBody>): z.output<typeof incidentBody> {
  const result = incidentBody.safeParse(input)
  if (!result.success) throw new RelayError('validation', z.prettifyError(result.error))
  return result.data
}

export async function addIncident(db: Database, operator: Operator, now: number, input: z.input<typeof incidentBody>): Promise<Incident> {
  const { title, body } = parsed(input)
  const row = { id: newId(), title, body: body || null, start_timestamp: now, resolved_timestamp: null }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('incidents').values(row).execute()
    await recordAudit(trx, operator, { action: 'incident.create', target: { kind: 'incident', ref: row.id }, after: row }, now)
  })
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
    .limit(200)
    .execute()
}

async function incidentOf(db: Database, id: string): Promise<Incident> {
  const row = await db.selectFrom('incidents').select(['id', 'title', 'body', 'start_timestamp', 'resolved_timestamp']).where('id', '=', id).executeTakeFirst()
  if (!row) throw new RelayError('not_found', `no incident ${id}`)
  return row
}

/** A new title and text for an incident, open or resolved (a correction, or what is known now). */
export async function updateIncident(db: Database, operator: Operator, id: string, now: number, input: z.input<typeof incidentBody>): Promise<Incident> {
  const { title, body } = parsed(input)
  return db.transaction().execute(async (trx) => {
    const before = await incidentOf(trx, id)
    await trx.updateTable('incidents').set({ title, body: body || null }).where('id', '=', id).execute()
    const after = { ...before, title, body: body || null }
    await recordAudit(trx, operator, { action: 'incident.update', target: { kind: 'incident', ref: id }, before: { title: before.title, body: before.body }, after: { title, body: after.body } }, now)
    return after
  })
}

/** Marks an open incident resolved; `business_rule` when it already is. */
export async function resolveIncident(db: Database, operator: Operator, id: string, now: number): Promise<Incident> {
  return db.transaction().execute(async (trx) => {
    const before = await incidentOf(trx, id)
    const result = await trx.updateTable('incidents').set({ resolved_timestamp: now }).where('id', '=', id).where('resolved_timestamp', 'is', null).executeTakeFirst()
    if (result.numUpdatedRows === 0n) throw new RelayError('business_rule', `incident ${id} is resolved already`)
    await recordAudit(trx, operator, { action: 'incident.resolve', target: { kind: 'incident', ref: id }, after: { resolved_timestamp: now } }, now)
    return { ...before, resolved_timestamp: now }
  })
}
