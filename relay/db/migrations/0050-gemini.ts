import type { Kysely } from 'kysely'

/**
 * Prices for Google's Gemini models, so Gemini CLI works out of the box through a `gemini`
 * provider (relay/proxy/gemini-routes.ts): the models it asks for by default
 * (`gemini-3.1-pro-preview`, and `gemini-3.5-flash-lite`, its router, on every prompt), the
 * models Google lists, and family patterns for the rest. Rates are Google's list prices
 * (ai.google.dev/gemini-api/docs/pricing, recorded 2026-11-28), 1 point = 1 US cent
 * (docs/decisions/020-points-ledger.md); a model released after the last price known here (gemini-3.5-flash-lite)
 * is priced like the newest of its family that has one, until the operator prices it
 * (`model-cost set`, or the console's pricing page). Gemini bills thoughts as output and cached
 * prompt tokens at the cache rate; there is no charge for writing its implicit cache. Pro models
 * charge 2× input and 1.5× output for the whole call above 200,000 prompt tokens.
 * A price an operator already set for one of these names stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Typed here: migrations see the schema as it was when written, not today's `Tables`.
  const typed = db as Kysely<{ model_costs: (typeof prices)[number] & { update_timestamp: number } }>
  // Wall time: migrations run before any clock is injected, and nothing depends on these values.
  const now = Date.now()
  await typed
    .insertInto('model_costs')
    .values(prices.map((price) => ({ ...price, update_timestamp: now })))
    .onConflict((oc) => oc.column('model').doNothing())
    .execute()
}

/** Rates in points per million tokens: input, output (thoughts included), cache read. */
const gemini = (model: string, [input, output, cacheRead]: [number, number, number], description: string, longContext = false) => ({
  model,
  kind: 'variable' as const,
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  cache_read_points_per_mtok: cacheRead,
  // Gemini reports no cache writes; priced as input should a provider ever report one.
  cache_write_points_per_mtok: input,
  long_context_threshold: longContext ? 200_000 : null,
  long_context_input_percent: longContext ? 200 : null,
  long_context_output_percent: longContext ? 150 : null,
  description,
})

// Google, per million tokens, prompts up to 200,000 tokens: Gemini 3 Pro and 3.1 Pro $2 / $12,
// cache read $0.20 ($4 / $18 / $0.40 above); Gemini 3 Flash $0.50 / $3, $0.05; Gemini 3.1
// Flash-Lite $0.25 / $1.50, $0.025 (rounds up to 3 points); Gemini 2.5 Pro $1.25 / $10, $0.125
// ($2.50 / $15 / $0.25 above); 2.5 Flash $0.30 / $2.50, $0.03; 2.5 Flash-Lite $0.10 / $0.40, $0.01.
const pro3: [number, number, number] = [200, 1200, 20]
const flash3: [number, number, number] = [50, 300, 5]
const flashLite31: [number, number, number] = [25, 150, 3]
const pro25: [number, number, number] = [125, 1000, 13]
const flash25: [number, number, number] = [30, 250, 3]
const flashLite25: [number, number, number] = [10, 40, 1]

const prices = [
  gemini('gemini-3.1-pro-preview', pro3, 'Gemini 3.1 Pro (preview)', true),
  gemini('gemini-3-pro-preview', pro3, 'Gemini 3 Pro (preview)', true),
  gemini('gemini-3-flash-preview', flash3, 'Gemini 3 Flash (preview)'),
  gemini('gemini-3.5-flash-lite', flashLite31, 'Gemini 3.5 Flash-Lite (priced as 3.1 Flash-Lite)'),
  gemini('gemini-3.1-flash-lite', flashLite31, 'Gemini 3.1 Flash-Lite'),
  gemini('gemini-2.5-pro', pro25, 'Gemini 2.5 Pro', true),
  gemini('gemini-2.5-flash', flash25, 'Gemini 2.5 Flash'),
  gemini('gemini-2.5-flash-lite', flashLite25, 'Gemini 2.5 Flash-Lite'),
  // Families: the most specific pattern that matches prices a model (points/model-costs.ts).
  gemini('gemini-*-pro*', pro3, 'Gemini Pro (any other)', true),
  gemini('gemini-*-flash*', flash3, 'Gemini Flash (any other)'),
  gemini('gemini-*-flash-lite*', flashLite31, 'Gemini Flash-Lite (any other)'),
  gemini('gemini-2.5-pro*', pro25, 'Gemini 2.5 Pro (dated)', true),
  gemini('gemini-2.5-flash*', flash25, 'Gemini 2.5 Flash (dated)'),
  gemini('gemini-2.5-flash-lite*', flashLite25, 'Gemini 2.5 Flash-Lite (dated)'),
  // Any other Gemini model: the dearest family, until the operator prices it.
  gemini('gemini-*', pro3, 'Gemini (any other)', true),
]
