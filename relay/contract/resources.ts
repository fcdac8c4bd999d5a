/**
 * Resource links of the profile page (docs/product.md: field names not shown, so ours): operators
 * manage them with the CLI, every signed-in user reads the same list.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'

export const resourceBounds = {
  title: { min: 1, max: 120 },
  url: { max: 512 },
  description: { max: 500 },
} as const

export const resourceLinkSchema = z
  .object({
    id: idSchema,
    title: z.string(),
    /** Always http(s). */
    url: z.string(),
    description: z.string().nullable(),
    /** Ascending; ties keep creation order. */
    sort_order: z.int(),
  })
  .meta({ id: 'ResourceLink' })

export const resourceListSchema = z
  .object({
    items: z.array(resourceLinkSchema),
    count: z.int(),
    /** When a link was last added, changed or removed; null before the first. */
    last_updated_timestamp: timestampSchema.nullable(),
  })
  .meta({ id: 'ResourceList' })

export type ResourceLink = z.output<typeof resourceLinkSchema>
export type ResourceList = z.output<typeof resourceListSchema>

export const resourceEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/api/user/resources',
    summary: 'Resource links, in display order, with their count and last change',
    tag: 'resources',
    auth: 'user',
    response: resourceListSchema,
  }),
}
