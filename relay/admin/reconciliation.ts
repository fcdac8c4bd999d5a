/**
 * The reconciliation report: for a calendar month (UTC, as providers invoice), per model and
 * provider, the usage the relay recorded, the points it charged for it, and what the same usage
 * costs at the providers' list prices (public-stats/list-prices.ts, in US cents: at the seeded
 * prices one point is one cent of list price, so the two columns compare directly). A price set
 * wrong shows as a row whose points fall far from its list cost, before the provider's invoice
 * does. Read from the hourly aggregates (admin/overview.ts), so a month is at most 744 hours of
 * rows per model and provider, never the call log.
 */
import type { Reconciliation } from '../contract/admin-ops.ts'
import type { Database } from '../db/open-database.ts'
import type { ProviderKeyBox } from '../proxy/provider-keys.ts'
import { listProviders, providerLabel } from '../proxy/providers.ts'
import { listCentsOf, readListPrices } from '../public-stats/list-prices.ts'
import { tokenCounts } from './overview.ts'

/** The first instant of `month` (`YYYY-MM`, UTC) and of the month after. */
export function monthBounds(month: string): { from: number; to: number } {
  const [year, index] = month.split('-').map(Number) as [number, number]
  return { from: Date.UTC(year, index - 1, 1), to: Date.UTC(year, index, 1) }
}

export async function reconciliation(db: Database, box: ProviderKeyBox, month: string): Promise<Reconciliation> {
  const { from, to } = monthBounds(month)
  const [hours, providers, list] = await Promise.all([
    db.selectFrom('ops_call_hours').selectAll().where('hour_start', '>=', from).where('hour_start', '<', to).execute(),
    listProviders(db, box),
    readListPrices(db),
  ])
  const labels = new Map(providers.map((provider) => [provider.id, providerLabel(provider)]))
  const rows = new Map<string, Reconciliation['rows'][number]>()
  for (const hour of hours) {
    const key = `${hour.model} ${hour.provider_id}`
    let row = rows.get(key)
    if (!row) {
      const providerId = String(hour.provider_id) === '0' ? null : String(hour.provider_id)
      row = {
        model: hour.model,
        provider_id: providerId,
        provider: providerId === null ? null : (labels.get(providerId) ?? null),
        calls: 0,
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cache_write_1h_tokens: 0,
        web_search_requests: 0,
        points: 0,
        list_cents: null,
      }
      rows.set(key, row)
    }
    row.calls += Number(hour.calls)
    row.points += Number(hour.points)
    for (const column of tokenCounts) row[column] += Number(hour[column])
  }
  const items = [...rows.values()].map((row) => ({ ...row, list_cents: listCentsOf(list, row.model, row) }))
  items.sort((a, b) => b.points - a.points || a.model.localeCompare(b.model))
  const listed = items.filter((row) => row.list_cents !== null)
  return {
    month,
    from_timestamp: from,
    to_timestamp: to,
    list_prices_date: list.readOn,
    rows: items,
    totals: {
      calls: items.reduce((sum, row) => sum + row.calls, 0),
      points: items.reduce((sum, row) => sum + row.points, 0),
      listed_points: listed.reduce((sum, row) => sum + row.points, 0),
      list_cents: listed.reduce((sum, row) => sum + row.list_cents!, 0),
    },
  }
}
