/**
 * The paging shape of every list call (docs/conventions.md): `?page&pageSize` (defaults 1 and 10,
 * pageSize at most 100), answered with `{ items, total, page, pageSize }`.
 */
import { z } from 'zod'

export const pageDefaults = { page: 1, pageSize: 10, maxPageSize: 100 } as const

/** Query values arrive as strings, hence the coercion. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(pageDefaults.page),
  pageSize: z.coerce.number().int().min(1).max(pageDefaults.maxPageSize).default(pageDefaults.pageSize),
})
export type PageQuery = z.output<typeof pageQuery>

export interface Paged<T> {
  items: T[]
  /** Items across all pages. */
  total: number
  page: number
  pageSize: number
}

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.int(), page: z.int(), pageSize: z.int() })
}

/**
 * What a bulk action acts on: rows ticked on one page of a list, so at most a page. Rows already in
 * the state asked for are left alone and not counted, so a repeated request changes nothing more.
 */
export const bulkRows = <T extends z.ZodType>(row: T) => z.array(row).min(1).max(pageDefaults.maxPageSize)
export const bulkChangedSchema = z.object({ changed: z.int() }).meta({ id: 'BulkChanged' })

/** Rows to skip for `page`. */
export function pageOffset({ page, pageSize }: PageQuery): number {
  return (page - 1) * pageSize
}
