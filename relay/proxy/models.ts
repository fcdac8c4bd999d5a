/**
 * GET /v1/models and /v1beta/models: the models this deployment prices by name (not by pattern)
 * and some enabled provider serves, in the format of the client asking — Anthropic's (clients send
 * `anthropic-version`) listing what the anthropic providers serve, Google's (/v1beta) what the
 * gemini providers serve, else OpenAI's listing what the openai providers serve. Each model once:
 * a dated id (`claude-sonnet-4-5-20250929`) priced beside its undated alias is the same model to a
 * client, so only the alias is listed (model pickers such as Claude Code's showed both).
 */
import type { Database } from '../db/open-database.ts'
import { isModelPattern } from '../points/model-costs.ts'
import { enabledProviders, servesModel, type ProviderKind } from './providers.ts'

export interface ListedModel {
  id: string
  displayName: string
  /** When its price was last set: the closest thing to a release date the relay knows. */
  timestamp: number
}

export async function servedModels(db: Database, kind: ProviderKind): Promise<ListedModel[]> {
  const [priced, providers] = await Promise.all([
    db.selectFrom('model_costs').select(['model', 'description', 'update_timestamp']).orderBy('model').execute(),
    enabledProviders(db, kind),
  ])
  const served = priced
    // A pattern (`claude-opus-*`) prices models; it is not one a client can ask for.
    .filter((cost) => !isModelPattern(cost.model) && providers.some((provider) => servesModel(provider, cost.model)))
  const ids = new Set(served.map((cost) => cost.model.toLowerCase()))
  return served
    .filter((cost) => !ids.has(undated(cost.model.toLowerCase())) || undated(cost.model.toLowerCase()) === cost.model.toLowerCase())
    .map((cost) => ({ id: cost.model, displayName: cost.description ?? cost.model, timestamp: cost.update_timestamp }))
}

/** The id without its date suffix, as the price table finds a dated model by its alias (model-costs.ts). */
function undated(id: string): string {
  return id.replace(/-\d{8}$|-\d{4}-\d{2}-\d{2}$/, '')
}

/** One page of Anthropic's model list: `limit` models after `after_id`, or before `before_id`. */
export interface ModelPage {
  limit: number | null
  afterId: string | null
  beforeId: string | null
}

const maxPageSize = 1000

/** The page a query asks for; a `limit` out of range is brought within 1–1000, as Anthropic's API does. */
export function anthropicPage(query: URLSearchParams): ModelPage {
  const limit = Number.parseInt(query.get('limit') ?? '', 10)
  return {
    limit: Number.isNaN(limit) ? null : Math.min(Math.max(limit, 1), maxPageSize),
    afterId: query.get('after_id') || null,
    beforeId: query.get('before_id') || null,
  }
}

export function anthropicModelList(models: readonly ListedModel[], page: ModelPage) {
  let from = 0
  let to = models.length
  if (page.afterId !== null) from = models.findIndex((m) => m.id === page.afterId) + 1 || models.length
  else if (page.beforeId !== null) to = Math.max(0, models.findIndex((m) => m.id === page.beforeId))
  if (page.limit !== null) {
    if (page.beforeId !== null && page.afterId === null) from = Math.max(0, to - page.limit)
    else to = Math.min(to, from + page.limit)
  }
  const listed = models.slice(from, to)
  return {
    data: listed.map((m) => ({ type: 'model', id: m.id, display_name: m.displayName, created_at: new Date(m.timestamp).toISOString() })),
    has_more: page.beforeId !== null && page.afterId === null ? from > 0 : to < models.length,
    first_id: listed[0]?.id ?? null,
    last_id: listed.at(-1)?.id ?? null,
  }
}

export function openAiModelList(models: readonly ListedModel[]) {
  return {
    object: 'list',
    data: models.map((m) => ({ id: m.id, object: 'model', created: Math.floor(m.timestamp / 1000), owned_by: 'relay' })),
  }
}

export function geminiModelList(models: readonly ListedModel[]) {
  return {
    models: models.map((m) => ({
      name: `models/${m.id}`,
      baseModelId: m.id,
      displayName: m.displayName,
      supportedGenerationMethods: ['generateContent', 'countTokens'],
    })),
  }
}
