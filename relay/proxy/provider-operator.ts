/**
 * What operators do to upstream providers, from the console (relay/admin/ops-routes.ts) and the
 * CLI (proxy/cli.ts) alike: each change and its audit row (docs/decisions/116-operator-audit-log.md) in one
 * transaction. The audit log never holds a key, only its masked hint.
 */
import { performance } from 'node:perf_hooks'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import type { ModelMapEntry, ProviderTest } from '../contract/admin-ops.ts'
import { RelayError } from '../http/relay-error.ts'
import type { Database } from '../db/open-database.ts'
import { isModelPattern, listModelCosts, patternRegExp } from '../points/model-costs.ts'
import type { RelayServices } from '../services.ts'
import { anthropicMessages, geminiCall, openAiChat, type Dialect } from './dialects.ts'
import { upstreamModelOf } from './model-mapping.ts'
import { ProviderKeyBox } from './provider-keys.ts'
import { addProvider, findProvider, removeProvider, servesModel, setProviderEnabled, toListing, updateProvider, type NewProvider, type ProviderKind, type ProviderListing } from './providers.ts'
import { sendUpstream, UpstreamError } from './upstream.ts'

type Services = Pick<RelayServices, 'db' | 'clock' | 'config'>

/** What the audit log keeps of a provider: everything but its key, which shows as its hint. */
function audited(listing: ProviderListing) {
  return { kind: listing.kind, base_url: listing.base_url, key: listing.key, models: listing.models, model_map: listing.model_map, priority: listing.priority, enabled: listing.enabled }
}

async function listingOf(db: Database, box: ProviderKeyBox, id: string): Promise<ProviderListing> {
  const row = await findProvider(db, id)
  if (!row) throw new RelayError('not_found', `no provider ${id}`)
  return toListing(row, box.open(row.key_ciphertext) !== null)
}

export async function addProviderAsOperator(services: Services, operator: Operator, input: NewProvider): Promise<ProviderListing> {
  const box = new ProviderKeyBox(services.config.jwtSecrets)
  const now = services.clock.now()
  return services.db.transaction().execute(async (trx) => {
    // The same API, address and key again is a second copy of one provider: its calls would
    // share one quota while routing counted two (a changed key or address is a new provider).
    const twins = await trx.selectFrom('proxy_providers').select(['id', 'key_ciphertext']).where('kind', '=', input.kind).where('base_url', '=', input.baseUrl.replace(/\/+$/, '')).execute()
    const twin = twins.find((row) => box.open(row.key_ciphertext) === input.key.trim())
    if (twin) throw new RelayError('provider_exists', `provider ${twin.id} already has this API, base URL and key: change that one instead`)
    const listing = await addProvider(trx, box, now, input)
    await recordAudit(trx, operator, { action: 'provider.add', target: { kind: 'provider', ref: listing.id }, after: audited(listing) }, now)
    return listing
  })
}

export async function updateProviderAsOperator(services: Services, operator: Operator, change: { id: string; models?: string[]; modelMap?: ModelMapEntry[]; priority?: number }): Promise<ProviderListing> {
  const box = new ProviderKeyBox(services.config.jwtSecrets)
  const now = services.clock.now()
  return services.db.transaction().execute(async (trx) => {
    const before = await listingOf(trx, box, change.id)
    await updateProvider(trx, change.id, change)
    const after = await listingOf(trx, box, change.id)
    const pick = (l: ProviderListing) => ({ models: l.models, model_map: l.model_map, priority: l.priority })
    await recordAudit(trx, operator, { action: 'provider.update', target: { kind: 'provider', ref: change.id }, before: pick(before), after: pick(after) }, now)
    return after
  })
}

export async function setProviderEnabledAsOperator(services: Services, operator: Operator, change: { id: string; enabled: boolean }): Promise<ProviderListing> {
  const box = new ProviderKeyBox(services.config.jwtSecrets)
  const now = services.clock.now()
  return services.db.transaction().execute(async (trx) => {
    const before = await listingOf(trx, box, change.id)
    await setProviderEnabled(trx, change.id, change.enabled, now)
    const action = change.enabled ? 'provider.enable' : 'provider.disable'
    await recordAudit(trx, operator, { action, target: { kind: 'provider', ref: change.id }, before: { enabled: before.enabled }, after: { enabled: change.enabled } }, now)
    return { ...before, enabled: change.enabled }
  })
}

/**
 * Providers ticked on the console's list, in one transaction with one audit row each. Those already
 * in the state asked are left alone and not counted; an unknown id changes nothing.
 */
export async function setProvidersEnabledAsOperator(services: Services, operator: Operator, change: { ids: string[]; enabled: boolean }): Promise<{ changed: number }> {
  const ids = [...new Set(change.ids)]
  const now = services.clock.now()
  return services.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('proxy_providers').select(['id', 'disabled_timestamp']).where('id', 'in', ids).orderBy('id').execute()
    if (rows.length !== ids.length) throw new RelayError('not_found', 'no such provider')
    const moving = rows.filter((row) => (row.disabled_timestamp === null) !== change.enabled)
    const action = change.enabled ? 'provider.enable' : 'provider.disable'
    for (const row of moving) {
      await setProviderEnabled(trx, row.id, change.enabled, now)
      await recordAudit(trx, operator, { action, target: { kind: 'provider', ref: row.id }, before: { enabled: !change.enabled }, after: { enabled: change.enabled } }, now)
    }
    return { changed: moving.length }
  })
}

/** Its calls stay on record. */
export async function removeProviderAsOperator(services: Services, operator: Operator, id: string): Promise<void> {
  const box = new ProviderKeyBox(services.config.jwtSecrets)
  const now = services.clock.now()
  await services.db.transaction().execute(async (trx) => {
    const before = await listingOf(trx, box, id)
    await removeProvider(trx, id)
    await recordAudit(trx, operator, { action: 'provider.remove', target: { kind: 'provider', ref: id }, before: audited(before) }, now)
  })
}

/** The smallest call of the provider's API: one output token. */
function testCall(kind: ProviderKind, model: string): { dialect: Dialect; body: object } {
  if (kind === 'gemini') {
    return { dialect: geminiCall(model, 'generateContent', false), body: { contents: [{ role: 'user', parts: [{ text: 'ping' }] }], generationConfig: { maxOutputTokens: 1 } } }
  }
  return { dialect: kind === 'anthropic' ? anthropicMessages : openAiChat, body: { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] } }
}

/** A test answers within this, however long calls may take. */
const testTimeoutMs = 30_000

/**
 * One minimal call (one output token) straight to the provider, outside routing, metering and the
 * circuits: whether its URL, key and model work now. The model: the one asked for, else the
 * provider's first pattern that names one model, else the first priced model it serves. The
 * answer says the status and how long the whole exchange took, never what the provider said
 * (an error body may name the key).
 */
export async function testProviderAsOperator(services: Services, operator: Operator, test: { id: string; model?: string }): Promise<ProviderTest> {
  const { db, clock, config } = services
  const box = new ProviderKeyBox(config.jwtSecrets)
  const row = await findProvider(db, test.id)
  if (!row) throw new RelayError('not_found', `no provider ${test.id}`)
  const key = box.open(row.key_ciphertext)
  if (key === null) throw new RelayError('business_rule', 'no configured secret opens this provider’s key: add the provider again')
  const patterns = JSON.parse(row.models) as string[]
  const provider = { patterns: patterns.map(patternRegExp) }
  const model =
    test.model ??
    patterns.find((pattern) => !isModelPattern(pattern)) ??
    (await listModelCosts(db)).find((cost) => !isModelPattern(cost.model) && servesModel(provider, cost.model))?.model
  if (!model) throw new RelayError('business_rule', 'no model to test with: name one')

  // Asked as a call would ask it: under the provider's own name for the model, if it maps it.
  const { dialect, body } = testCall(row.kind, upstreamModelOf(row.model_map, model))
  const headers = { 'content-type': 'application/json', ...(row.kind === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}), ...dialect.authenticate(key) }
  const started = performance.now()
  let result: Omit<ProviderTest, 'latency_ms' | 'model'>
  try {
    const response = await sendUpstream({
      url: new URL(row.base_url + dialect.path),
      headers,
      body: Buffer.from(JSON.stringify(body)),
      connectTimeoutMs: config.providerConnectTimeoutMs,
      http2: config.providerHttp2,
      idleTimeoutMs: Math.min(config.providerTimeoutMs, testTimeoutMs),
      signal: AbortSignal.timeout(testTimeoutMs),
    })
    // Read to the end: the connection then returns to its pool, and the time covers the whole answer.
    for await (const chunk of response.body) void chunk
    const ok = response.status >= 200 && response.status < 300
    result = { ok, status: response.status, error: ok ? null : `HTTP ${response.status}` }
  } catch (error) {
    result = { ok: false, status: null, error: error instanceof UpstreamError ? `${error.kind}: ${error.message}` : String(error) }
  }
  const outcome: ProviderTest = { ...result, model, latency_ms: Math.round(performance.now() - started) }
  await recordAudit(db, operator, { action: 'provider.test', target: { kind: 'provider', ref: row.id }, after: outcome }, clock.now())
  return outcome
}
