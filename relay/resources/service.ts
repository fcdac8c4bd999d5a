/**
 * Resource links: added, changed and removed by operators (the `…AsOperator` functions, from the
 * CLI and the console alike, each with its audit row), read by every user (routes.ts).
 */
import type { z } from 'zod'
import { resourceLinkBody } from '../contract/admin-catalog.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import type { ResourceLink, ResourceList } from '../contract/resources.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { inTransaction } from '../points/locks.ts'

/** The console's body (contract/admin-catalog.ts) is the one rule; the CLI names the order `sortOrder`. */
export const newResourceLink = resourceLinkBody.omit({ sort_order: true }).extend({ sortOrder: resourceLinkBody.shape.sort_order })
export type NewResourceLink = z.input<typeof newResourceLink>

export async function addResourceLink(db: Database, input: NewResourceLink, now: number): Promise<ResourceLink> {
  const link = newResourceLink.parse(input)
  const row = {
    id: newId(),
    title: link.title,
    url: link.url,
    description: link.description || null,
    sort_order: link.sortOrder,
    create_timestamp: now,
    update_timestamp: now,
    removed_timestamp: null,
  }
  await db.insertInto('resource_links').values(row).execute()
  return { id: row.id, title: row.title, url: row.url, description: row.description, sort_order: row.sort_order }
}

export async function removeResourceLink(db: Database, id: string, now: number): Promise<void> {
  const result = await db
    .updateTable('resource_links')
    .set({ removed_timestamp: now })
    .where('id', '=', id)
    .where('removed_timestamp', 'is', null)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new RelayError('not_found', `no resource link ${id}`)
}

export async function listResourceLinks(db: Database): Promise<ResourceList> {
  const [items, latest] = await Promise.all([
    db
      .selectFrom('resource_links')
      .select(['id', 'title', 'url', 'description', 'sort_order'])
      .where('removed_timestamp', 'is', null)
      .orderBy('sort_order', 'asc')
      .orderBy('id', 'asc')
      .execute(),
    db
      .selectFrom('resource_links')
      .select((eb) => [
        eb.fn.max('update_timestamp').as('updated'),
        eb.fn.max('removed_timestamp').as('removed'),
      ])
      .executeTakeFirstOrThrow(),
  ])
  const times = [latest.updated, latest.removed].filter((t): t is number => t !== null).map(Number)
  return { items, count: items.length, last_updated_timestamp: times.length > 0 ? Math.max(...times) : null }
}

/** What the audit log keeps of a link. */
function linkState(link: Pick<ResourceLink, 'title' | 'url' | 'description' | 'sort_order'>) {
  return { title: link.title, url: link.url, description: link.description, sort_order: link.sort_order }
}

export async function addResourceLinkAsOperator(db: Database, operator: Operator, input: NewResourceLink, now: number): Promise<ResourceLink> {
  return inTransaction(db, async (trx) => {
    const link = await addResourceLink(trx, input, now)
    await recordAudit(trx, operator, { action: 'resource.add', target: { kind: 'resource_link', ref: link.id }, after: linkState(link) }, now)
    return link
  })
}

export async function updateResourceLinkAsOperator(db: Database, operator: Operator, id: string, input: NewResourceLink, now: number): Promise<void> {
  const link = newResourceLink.parse(input)
  await inTransaction(db, async (trx) => {
    const before = await trx.selectFrom('resource_links').select(['title', 'url', 'description', 'sort_order']).where('id', '=', id).where('removed_timestamp', 'is', null).executeTakeFirst()
    if (!before) throw new RelayError('not_found', `no resource link ${id}`)
    const after = { title: link.title, url: link.url, description: link.description || null, sort_order: link.sortOrder }
    await trx.updateTable('resource_links').set({ ...after, update_timestamp: now }).where('id', '=', id).execute()
    await recordAudit(trx, operator, { action: 'resource.update', target: { kind: 'resource_link', ref: id }, before: linkState(before), after: linkState(after) }, now)
  })
}

export async function removeResourceLinkAsOperator(db: Database, operator: Operator, id: string, now: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await trx.selectFrom('resource_links').select(['title', 'url', 'description', 'sort_order']).where('id', '=', id).where('removed_timestamp', 'is', null).executeTakeFirst()
    await removeResourceLink(trx, id, now)
    await recordAudit(trx, operator, { action: 'resource.remove', target: { kind: 'resource_link', ref: id }, before: before && linkState(before) }, now)
  })
}
