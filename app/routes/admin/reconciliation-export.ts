/**
 * The reconciliation report as CSV: the rows of the page for the same month, one per model and
 * provider, with every token kind apart and the list cost in US dollars. A link downloads it, with
 * or without JavaScript; a month is at most a few hundred rows, so it is written whole.
 */
import type { Route } from './+types/reconciliation-export'
import { endpoints } from '#relay/contract/index.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { monthOf } from '#app/schemas/admin-ops.ts'
import { csvResponse } from '#app/utils/csv-response.server.ts'

const header = ['month', 'model', 'provider_id', 'provider', 'calls', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_5m_tokens', 'cache_write_1h_tokens', 'web_searches', 'points_charged', 'list_usd', 'points_per_list_cent']

export async function loader({ request, context }: Route.LoaderArgs) {
  const month = monthOf(request)
  const report = await getRelay(context).call(endpoints.adminOps.reconciliation, { query: { month } })
  return csvResponse(
    `reconciliation-${month}.csv`,
    header,
    report.rows.map((row) => [
      month,
      row.model,
      row.provider_id ?? '',
      row.provider ?? '',
      row.calls,
      row.input_tokens,
      row.output_tokens,
      row.cache_read_tokens,
      row.cache_write_tokens,
      row.cache_write_1h_tokens,
      row.web_search_requests,
      row.points,
      row.list_cents === null ? '' : (row.list_cents / 100).toFixed(4),
      row.list_cents === null || row.list_cents === 0 ? '' : (row.points / row.list_cents).toFixed(4),
    ]),
  )
}
