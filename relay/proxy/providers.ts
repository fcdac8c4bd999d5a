/**
 * Upstream providers (operator CLI: `provider add|list|enable|disable|remove`). Each has a kind —
 * the API it speaks: `anthropic` serves /v1/messages, `openai` serves /v1/chat/completions — a
 * base URL as the official SDK takes it, a key kept sealed (provider-keys.ts), the model
 * patterns it serves and a priority. A call tries the matching providers from the highest
 * priority down, failing over until one answers; among equal priorities each client session has
 * its own order (rendezvous.ts), so its calls keep reaching the provider that holds its prompt cache.
 */
import type { Selectable } from 'kysely'
import { z } from 'zod'
import { modelPatternSchema } from '../contract/api-keys.ts'
import { baseUrlProblem, modelMapEntrySchema, providerBaseUrlSchema, providerKinds, providerPrioritySchema, type ModelMapEntry, type ProviderKind } from '../contract/admin-ops.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { ProxyProvidersTable } from '../db/schema.ts'
import { upstreamModelOf } from './model-mapping.ts'
import { keyHint, type ProviderKeyBox } from './provider-keys.ts'
import { rendezvousOrder } from './rendezvous.ts'

export { providerKinds, type ProviderKind } from '../contract/admin-ops.ts'

type ProviderRow = Selectable<ProxyProvidersTable>

/** A provider ready to be called: its key in clear, held only in memory for the call. */
export interface Provider {
  id: string
  kind: ProviderKind
  baseUrl: string
  key: string
  /** How the console names it (`providerLabel`). */
  label: string
  /** The name this call's model is sent under: its own, unless the provider maps it (model-mapping.ts). */
  model: string
}

/** `kind · host`: how the console and the metrics name a provider. */
export function providerLabel(provider: { kind: string; base_url: string }): string {
  return `${provider.kind} · ${new URL(provider.base_url).host}`
}

/**
 * A label per provider that no other provider shares: two providers of one kind on one host (two
 * keys of one account, say) differ by their key's last four characters, then by their id. The
 * console names rows by it, and a row's name is all a phone has room for.
 */
export function distinctProviderLabels(providers: ReadonlyArray<{ id: string; kind: string; base_url: string; key: string }>): Map<string, string> {
  const shared = countBy(providers.map(providerLabel))
  const labels = new Map(providers.map((p) => [p.id, shared.get(providerLabel(p))! > 1 ? `${providerLabel(p)} · …${p.key.slice(-4)}` : providerLabel(p)]))
  const stillShared = countBy([...labels.values()])
  for (const [id, label] of labels) if (stillShared.get(label)! > 1) labels.set(id, `${label} #${id}`)
  return labels
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

/** As `provider list` shows it: never the key itself. */
export interface ProviderListing {
  id: string
  kind: ProviderKind
  base_url: string
  key: string
  models: string[]
  model_map: ModelMapEntry[]
  priority: number
  enabled: boolean
  /** False when no configured JWT secret opens the key (rotated away): re-add the provider. */
  key_readable: boolean
  create_timestamp: number
}

export const newProviderSchema = z.object({
  kind: z.enum(providerKinds),
  baseUrl: providerBaseUrlSchema,
  key: z.string().trim().min(8, 'the key looks too short').max(512),
  models: z.array(modelPatternSchema).min(1).default(['*']),
  modelMap: z.array(modelMapEntrySchema).max(50).default([]),
  priority: providerPrioritySchema.default(0),
})
export type NewProvider = z.input<typeof newProviderSchema>

export async function addProvider(db: Database, box: ProviderKeyBox, now: number, input: NewProvider): Promise<ProviderListing> {
  const provider = newProviderSchema.parse(input)
  const problem = baseUrlProblem(provider.kind, provider.baseUrl)
  if (problem) throw new Error(problem)
  const row: ProviderRow = {
    id: newId(),
    kind: provider.kind,
    base_url: provider.baseUrl,
    key_ciphertext: box.seal(provider.key),
    key_hint: keyHint(provider.key),
    models: JSON.stringify(provider.models),
    model_map: mapColumn(provider.modelMap),
    priority: provider.priority,
    disabled_timestamp: null,
    create_timestamp: now,
  }
  await db.insertInto('proxy_providers').values(row).execute()
  return toListing(row, true)
}

/** The stored mapping: null for none, so a call of an unmapped provider does no work for it. */
function mapColumn(entries: readonly ModelMapEntry[]): string | null {
  return entries.length > 0 ? JSON.stringify(entries) : null
}

/** Changes what is given of a provider's priority, patterns and mapping; false when there is no such provider. */
export async function updateProvider(db: Database, id: string, change: { models?: string[]; modelMap?: ModelMapEntry[]; priority?: number }): Promise<boolean> {
  if (change.models === undefined && change.priority === undefined && change.modelMap === undefined) return (await findProvider(db, id)) !== undefined
  const result = await db
    .updateTable('proxy_providers')
    .set({
      ...(change.models ? { models: JSON.stringify(change.models) } : {}),
      ...(change.modelMap ? { model_map: mapColumn(change.modelMap) } : {}),
      ...(change.priority !== undefined ? { priority: change.priority } : {}),
    })
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function findProvider(db: Database, id: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('proxy_providers').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function listProviders(db: Database, box: ProviderKeyBox): Promise<ProviderListing[]> {
  const rows = await db.selectFrom('proxy_providers').selectAll().orderBy('kind').orderBy('priority', 'desc').orderBy('id').execute()
  return rows.map((row) => toListing(row, box.open(row.key_ciphertext) !== null))
}

/** False when there is no such provider. */
export async function setProviderEnabled(db: Database, id: string, enabled: boolean, now: number): Promise<boolean> {
  const result = await db
    .updateTable('proxy_providers')
    .set({ disabled_timestamp: enabled ? null : now })
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** False when there is no such provider. Its calls stay on record. */
export async function removeProvider(db: Database, id: string): Promise<boolean> {
  const result = await db.deleteFrom('proxy_providers').where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export type EnabledProvider = ProviderRow & { patterns: RegExp[] }

/** Enabled providers of `kind`, each with the patterns it serves. */
export async function enabledProviders(db: Database, kind: ProviderKind): Promise<EnabledProvider[]> {
  const rows = await db
    .selectFrom('proxy_providers')
    .selectAll()
    .where('kind', '=', kind)
    .where('disabled_timestamp', 'is', null)
    .execute()
  return rows.map((row) => ({ ...row, patterns: patternsOf(row.models) }))
}

/** Parsed patterns by their stored JSON: every call reads the providers, few lists ever exist. */
const parsedPatterns = new Map<string, RegExp[]>()

function patternsOf(models: string): RegExp[] {
  let patterns = parsedPatterns.get(models)
  if (!patterns) {
    patterns = (JSON.parse(models) as string[]).map(patternRegExp)
    if (parsedPatterns.size >= 1000) parsedPatterns.clear()
    parsedPatterns.set(models, patterns)
  }
  return patterns
}

export function servesModel(provider: { patterns: RegExp[] }, model: string): boolean {
  return provider.patterns.some((pattern) => pattern.test(model))
}

/**
 * The providers to try for `model`, in order, from the enabled providers of its kind: by priority,
 * equal ones in the order of the session `affinityKey` (rendezvous.ts). A provider whose key no
 * secret opens is left out (and reported through `onUnreadable`), as it could only fail.
 */
export function providersInOrder(
  enabled: readonly EnabledProvider[],
  box: ProviderKeyBox,
  model: string,
  affinityKey: string,
  onUnreadable: (providerId: string) => void,
): Provider[] {
  const providers: Provider[] = []
  for (const row of rendezvousOrder(enabled.filter((row) => servesModel(row, model)), affinityKey)) {
    const key = box.open(row.key_ciphertext)
    if (key === null) onUnreadable(row.id)
    else providers.push({ id: row.id, kind: row.kind, baseUrl: row.base_url, key, label: providerLabel(row), model: upstreamModelOf(row.model_map, model) })
  }
  return providers
}

function patternRegExp(pattern: string): RegExp {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')
  return new RegExp(`^${source}$`, 'i')
}

export function toListing(row: ProviderRow, keyReadable: boolean): ProviderListing {
  return {
    id: row.id,
    kind: row.kind,
    base_url: row.base_url,
    key: row.key_hint,
    models: JSON.parse(row.models) as string[],
    model_map: row.model_map === null ? [] : (JSON.parse(row.model_map) as ModelMapEntry[]),
    priority: row.priority,
    enabled: row.disabled_timestamp === null,
    key_readable: keyReadable,
    create_timestamp: row.create_timestamp,
  }
}
