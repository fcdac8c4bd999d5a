import type { Kysely } from 'kysely'

/**
 * The operator's hourly aggregates (`ops_call_hours`, admin/overview.ts) count every kind of token
 * and the searches, so the reconciliation report (admin/reconciliation.ts) prices a month of usage
 * at the providers' list prices from them. Hours aggregated before this migration count 0 of these.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['cache_read_tokens', 'cache_write_tokens', 'cache_write_1h_tokens', 'web_search_requests'] as const) {
    await db.schema.alterTable('ops_call_hours').addColumn(column, 'bigint', (col) => col.notNull().defaultTo(0)).execute()
  }
}
