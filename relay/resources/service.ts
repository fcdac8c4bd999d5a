/** Resource links: added, listed and removed by operators (cli.ts), read by every user (routes.ts). */
import { z } from 'zod'
import { resourceBounds, type ResourceLink, type ResourceList } from '../contract/resources.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'

export const newResourceLink = z.object({
  title: z.string().trim().min(resourceBounds.title.min).max(resourceBounds.title.max),
  // Only http(s): the portal renders the URL as a link, and a `javascript:` one would run script.
  url: z.url({ protocol: /^https?$/ }).max(resourceBounds.url.max),
  description: z.string().trim().max(resourceBounds.description.max).optional(),
  sortOrder: z.int().min(-1_000_000).max(1_000_000).default(0),
})
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
