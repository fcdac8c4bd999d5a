import type { Kysely } from 'kysely'

/**
 * Prices for the OpenAI models Codex CLI 0.171 and other Responses API clients ask for: Codex's
 * default `gpt-6.2-sol`, the GPT-6.x, GPT-5.x and o-series models still offered, and family
 * patterns, in proportion to OpenAI's list prices (1 point = 1 US cent of list price,
 * docs/decisions/020-points-ledger.md). Sources, read 2026-11-28: OpenAI's pricing and model pages as quoted in
 * release notes of price trackers (GPT-6 Sol/Luna 2026-09-22, GPT-6 Astra 2026-09-03, GPT-6.1
 * Sol and Terra 2026-10, GPT-5.6 after the 2026-07-30 cut). No list price of `gpt-6.2-sol` was
 * published by then: it is priced as GPT-6.1 Sol until the operator sets its own. Cached input is
 * OpenAI's cached-input rate (a half cent rounds up); the Responses API reports no cache writes.
 * Above 272,000 prompt tokens OpenAI bills the GPT-5.6 and GPT-6 families 2× input and 1.5×
 * output for the whole call. A price an operator already set for one of these names stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  interface Tables {
    model_costs: ReturnType<typeof openAi> & { update_timestamp: number }
  }
  // Wall time: migrations run before any clock is injected, and nothing depends on these values.
  const now = Date.now()
  await (db as Kysely<Tables>)
    .insertInto('model_costs')
    .values(prices.map((price) => ({ ...price, update_timestamp: now })))
    .onConflict((oc) => oc.column('model').doNothing())
    .execute()
}

/** Over 272,000 prompt tokens: 2× input (cached included), 1.5× output. */
const long = { threshold: 272_000, inputPercent: 200, outputPercent: 150 }

/** Rates in points per million tokens: input, output, cached input. */
const openAi = (model: string, [input, output, cached]: [number, number, number], description: string, longContext: typeof long | null = null) => ({
  model,
  kind: 'variable' as const,
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  cache_read_points_per_mtok: cached,
  cache_write_points_per_mtok: null,
  long_context_threshold: longContext?.threshold ?? null,
  long_context_input_percent: longContext?.inputPercent ?? null,
  long_context_output_percent: longContext?.outputPercent ?? null,
  description,
})

// Per million tokens: GPT-6.1 Sol $2 / $10, cached $0.10; GPT-6.1 Terra $1 / $5, $0.05; GPT-6 Astra
// $10 / $50, $1; GPT-6 Sol $2 / $10, $0.20; GPT-6 Luna $0.10 / $0.50, $0.01; GPT-5.6 Sol $5 / $30,
// $0.50; GPT-5.6 Terra $2 / $12, $0.20; GPT-5.6 Luna $0.20 / $1.20, $0.02; GPT-5.2 $1.75 / $14,
// $0.175; GPT-5 $1.25 / $10, $0.125; GPT-5 mini $0.25 / $2, $0.025; o3 $2 / $8, $0.50; o4-mini
// $1.10 / $4.40, $0.275; o1 $15 / $60, $7.50.
const sol61: [number, number, number] = [200, 1000, 10]
const terra61: [number, number, number] = [100, 500, 5]
const astra6: [number, number, number] = [1000, 5000, 100]
const luna6: [number, number, number] = [10, 50, 1]

const prices = [
  openAi('gpt-6.2-sol', sol61, 'GPT-6.2 Sol (Codex default)', long),
  openAi('gpt-6.1-sol', sol61, 'GPT-6.1 Sol', long),
  openAi('gpt-6.1-terra', terra61, 'GPT-6.1 Terra', long),
  openAi('gpt-6-astra', astra6, 'GPT-6 Astra', long),
  openAi('gpt-6-sol', [200, 1000, 20], 'GPT-6 Sol', long),
  openAi('gpt-6-luna', luna6, 'GPT-6 Luna', long),
  openAi('gpt-5.6-sol', [500, 3000, 50], 'GPT-5.6 Sol', long),
  openAi('gpt-5.6-terra', [200, 1200, 20], 'GPT-5.6 Terra', long),
  openAi('gpt-5.6-luna', [20, 120, 2], 'GPT-5.6 Luna', long),
  openAi('gpt-5.2', [175, 1400, 18], 'GPT-5.2'),
  openAi('gpt-5', [125, 1000, 13], 'GPT-5'),
  openAi('gpt-5-mini', [25, 200, 3], 'GPT-5 mini'),
  openAi('o3', [200, 800, 50], 'o3'),
  openAi('o4-mini', [110, 440, 28], 'o4-mini'),
  openAi('o1', [1500, 6000, 750], 'o1'),
  // Families: a model released after this table is priced like the newest of its tier until the
  // operator prices it; any other GPT like the newest Sol.
  openAi('gpt-*-sol', sol61, 'GPT Sol (any other)', long),
  openAi('gpt-*-terra', terra61, 'GPT Terra (any other)', long),
  openAi('gpt-*-luna', luna6, 'GPT Luna (any other)', long),
  openAi('gpt-*-astra', astra6, 'GPT Astra (any other)', long),
  openAi('gpt-*', sol61, 'GPT (any other)', long),
  openAi('o3-*', [200, 800, 50], 'o3 (any other)'),
  openAi('o4-*', [110, 440, 28], 'o4 (any other)'),
  openAi('o1-*', [1500, 6000, 750], 'o1 (any other)'),
]
