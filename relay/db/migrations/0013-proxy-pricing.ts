import type { Kysely } from 'kysely'

/**
 * Prices that survive model releases, and calls that may cost more than the balance held
 * (docs/decisions/080-prices.md, decisions/072-how-a-call-is-charged.md, decisions/011-tokens-and-scopes.md):
 * - `model_costs` may name a pattern (`claude-opus-*`) and gains a long-context tier: above
 *   `long_context_threshold` prompt tokens a call is charged these percentages of the rates;
 * - prices for the models Claude Code 2.1.330 asks for by default (`claude-opus-5-5`,
 *   `claude-sonnet-5-5`, `claude-haiku-5-5`), their predecessors still offered, and the family
 *   patterns, from Anthropic's list prices as published on 2026-11-24 (1 point ≈ 1 US cent,
 *   docs/decisions/020-points-ledger.md); the long-context tiers of Sonnet 4 and 4.5 as Anthropic bills them;
 * - `proxy_calls` records calls made with an OAuth token (`client_id`, no `key_id`) and what a
 *   call cost beyond the balance (`shortfall_points`). SQLite cannot drop a NOT NULL, so the table
 *   is rebuilt with its rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('model_costs').addColumn('long_context_threshold', 'integer').execute()
  await db.schema.alterTable('model_costs').addColumn('long_context_input_percent', 'integer').execute()
  await db.schema.alterTable('model_costs').addColumn('long_context_output_percent', 'integer').execute()

  // Typed here: migrations see the schema as it was when written, not today's `Tables`.
  interface Tables {
    model_costs: (typeof prices)[number] & { update_timestamp: number }
    proxy_calls: Record<(typeof keptColumns)[number], unknown>
    proxy_calls_0009: Record<(typeof keptColumns)[number], unknown>
  }
  const typed = db as Kysely<Tables>
  // Wall time: migrations run before any clock is injected, and nothing depends on these values.
  const now = Date.now()
  // A price an operator already set for one of these names stays.
  await typed
    .insertInto('model_costs')
    .values(prices.map((price) => ({ ...price, update_timestamp: now })))
    .onConflict((oc) => oc.column('model').doNothing())
    .execute()
  for (const model of ['claude-sonnet-4', 'claude-sonnet-4-0', 'claude-sonnet-4-20250514', 'claude-sonnet-4-5', 'claude-sonnet-4-5-20250929']) {
    await typed
      .updateTable('model_costs')
      .set({ long_context_threshold: 200_000, long_context_input_percent: 200, long_context_output_percent: 150 })
      .where('model', '=', model)
      .where('long_context_threshold', 'is', null)
      .execute()
  }

  await db.schema.dropIndex('proxy_calls_user').execute()
  await db.schema.alterTable('proxy_calls').renameTo('proxy_calls_0009').execute()
  await db.schema
    .createTable('proxy_calls')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    // Null for a call made with an OAuth access token; then `client_id` names its client.
    .addColumn('key_id', 'bigint', (col) => col.references('api_keys.id'))
    // No reference: a client can be removed while its calls stay on record.
    .addColumn('client_id', 'varchar(64)')
    .addColumn('provider_id', 'bigint')
    .addColumn('api', 'varchar(16)', (col) => col.notNull())
    .addColumn('model', 'varchar(128)', (col) => col.notNull())
    .addColumn('streamed', 'integer', (col) => col.notNull())
    .addColumn('outcome', 'varchar(16)', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('input_tokens', 'integer', (col) => col.notNull())
    .addColumn('output_tokens', 'integer', (col) => col.notNull())
    .addColumn('cache_read_tokens', 'integer', (col) => col.notNull())
    .addColumn('cache_write_tokens', 'integer', (col) => col.notNull())
    .addColumn('points', 'integer', (col) => col.notNull())
    .addColumn('shortfall_points', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('client_ip', 'varchar(64)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .execute()
  await typed
    .insertInto('proxy_calls')
    .columns([...keptColumns])
    .expression(typed.selectFrom('proxy_calls_0009').select([...keptColumns]))
    .execute()
  await db.schema.dropTable('proxy_calls_0009').execute()
  await db.schema.createIndex('proxy_calls_user').on('proxy_calls').columns(['user_id', 'create_timestamp']).execute()
}

const keptColumns = [
  'id',
  'user_id',
  'key_id',
  'provider_id',
  'api',
  'model',
  'streamed',
  'outcome',
  'status',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'points',
  'client_ip',
  'create_timestamp',
  'duration_ms',
] as const

/** Rates in points per million tokens: input, output, cache read, 5-minute cache write. */
const claude = (
  model: string,
  [input, output, cacheRead, cacheWrite]: [number, number, number, number],
  description: string,
  longContext: { threshold: number; inputPercent: number; outputPercent: number } | null = null,
) => ({
  model,
  kind: 'variable' as const,
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  cache_read_points_per_mtok: cacheRead,
  cache_write_points_per_mtok: cacheWrite,
  long_context_threshold: longContext?.threshold ?? null,
  long_context_input_percent: longContext?.inputPercent ?? null,
  long_context_output_percent: longContext?.outputPercent ?? null,
  description,
})

// Anthropic, per million tokens: Opus 5.5 $4 / $20, cache read $0.20, 5-minute write $5;
// Sonnet 5.5 and Sonnet 5 $2 / $10, $0.20, $2.50; Haiku 5.5 $0.10 / $0.50, $0.01, $0.125 for
// prompts up to 100,000 tokens and five times that above (its write rounds up to 13 points);
// Opus 5 and Opus 4.5–4.8 $5 / $25, $0.50, $6.25; Sonnet 4.6 $3 / $15, $0.30, $3.75 with 2× input
// and 1.5× output above 200,000 prompt tokens.
const opus55: [number, number, number, number] = [400, 2000, 20, 500]
const sonnet5: [number, number, number, number] = [200, 1000, 20, 250]
const haiku55: [number, number, number, number] = [10, 50, 1, 13]
const opus5: [number, number, number, number] = [500, 2500, 50, 625]
const haikuLong = { threshold: 100_000, inputPercent: 500, outputPercent: 500 }
const sonnet4Long = { threshold: 200_000, inputPercent: 200, outputPercent: 150 }

const prices = [
  claude('claude-opus-5-5', opus55, 'Claude Opus 5.5'),
  claude('claude-sonnet-5-5', sonnet5, 'Claude Sonnet 5.5'),
  claude('claude-haiku-5-5', haiku55, 'Claude Haiku 5.5', haikuLong),
  claude('claude-opus-5', opus5, 'Claude Opus 5'),
  claude('claude-sonnet-5', sonnet5, 'Claude Sonnet 5'),
  claude('claude-opus-4-8', opus5, 'Claude Opus 4.8'),
  // Families: a model released after this table (claude-opus-6, …) is priced like the newest of
  // its family until the operator prices it; older generations keep their own.
  claude('claude-opus-*', opus55, 'Claude Opus (any other)'),
  claude('claude-sonnet-*', sonnet5, 'Claude Sonnet (any other)'),
  claude('claude-haiku-*', haiku55, 'Claude Haiku (any other)', haikuLong),
  claude('claude-opus-4-*', opus5, 'Claude Opus 4.5–4.8'),
  claude('claude-sonnet-4-*', [300, 1500, 30, 375], 'Claude Sonnet 4.x', sonnet4Long),
  claude('claude-haiku-4-*', [100, 500, 10, 125], 'Claude Haiku 4.x'),
]
