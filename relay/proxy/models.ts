/**
 * GET /v1/models and /v1beta/models: the models this deployment prices by name (not by pattern)
 * and some enabled provider serves, in the format of the client asking — Anthropic's (clients send
 * `anthropic-version`) listing what the anthropic providers serve, Google's (/v1beta) what the
 * gemini providers serve, else OpenAI's listing what the openai providers serve.
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
  return priced
    // A pattern (`claude-opus-*`) prices models; it is not one a client can ask for.
    .filter((cost) => !isModelPattern(cost.model) && providers.some((provider) => servesModel(provider, cost.model)))
    .map((cost) => ({ id: cost.model, displayName: cost.description ?? cost.model, timestamp: cost.update_timestamp }))
}

export function anthropicModelList(models: readonly ListedModel[]) {
  return {
    data: models.map((m) => ({ type: 'model', id: m.id, display_name: m.displayName, created_at: new Date(m.timestamp).toISOString() })),
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
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
