/**
 * Model prices as CSV: those ticked on /admin/pricing, or with none ticked, every price its
 * search shows. The list's bulk form reads it with GET, with or without JavaScript.
 */
import type { Route } from './+types/pricing-export'
import { endpoints } from '#relay/contract/index.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { csvResponse } from '#app/utils/csv-response.server.ts'
import { tickedRows } from './outcome.server.ts'

const header = [
  'model',
  'kind',
  'points_per_call',
  'input_points_per_mtok',
  'output_points_per_mtok',
  'cache_read_points_per_mtok',
  'cache_write_points_per_mtok',
  'cache_write_1h_points_per_mtok',
  'web_search_points',
  'long_context_threshold',
  'long_context_input_percent',
  'long_context_output_percent',
  'typical_points',
  'description',
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const ticked = new Set(tickedRows(url))
  const q = url.searchParams.get('q')?.trim().slice(0, 128) || undefined
  const prices = await getRelay(context).call(endpoints.adminOps.prices, { query: ticked.size > 0 ? {} : { q } })
  const cell = (value: number | null | undefined) => value ?? ''
  return csvResponse(
    'prices.csv',
    header,
    prices.items
      .filter((price) => ticked.size === 0 || ticked.has(price.model))
      .map((price) => [
        price.model,
        price.kind,
        cell(price.points_per_call),
        cell(price.input_points_per_mtok),
        cell(price.output_points_per_mtok),
        cell(price.cache_read_points_per_mtok),
        cell(price.cache_write_points_per_mtok),
        cell(price.cache_write_1h_points_per_mtok),
        cell(price.web_search_points),
        cell(price.long_context_threshold),
        cell(price.long_context_input_percent),
        cell(price.long_context_output_percent),
        price.typical_points,
        price.description ?? '',
      ]),
  )
}
