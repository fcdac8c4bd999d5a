/**
 * Google's Gemini API (`/v1beta`), for Gemini CLI and Google's SDKs: generateContent,
 * streamGenerateContent, countTokens and the model list, forwarded to `gemini` providers. Every
 * answer under /v1beta, a refusal or an unknown path alike, is JSON in Google's error format; the
 * key is checked before the path, so a wrong key always says "key".
 */
import type { Context, Hono } from 'hono'
import type { RelayEnv } from '../http/relay-env.ts'
import { mayCall } from '../keys/limits.ts'
import { proxyErrorResponse, ProxyError } from './client-errors.ts'
import { geminiCall, geminiMethods, geminiModelPattern, type GeminiMethod } from './dialects.ts'
import { authenticate, freeCall, meteredCall, type ProxyDeps } from './metered-call.ts'
import { geminiModelList, servedModels } from './models.ts'

export const geminiPaths = {
  /** `{model}:{method}` in one segment, as Google's REST API writes it. */
  call: '/v1beta/models/:call',
  models: '/v1beta/models',
} as const

export function mountGeminiRoutes(app: Hono<RelayEnv>, deps: ProxyDeps): void {
  app.post(geminiPaths.call, (c) => call(c, deps))
  app.get(geminiPaths.models, (c) => refusingInGoogleTerms(c, () => listModels(c, deps)))
  app.all('/v1beta', (c) => refusingInGoogleTerms(c, () => unknownPath(c, deps)))
  app.all('/v1beta/*', (c) => refusingInGoogleTerms(c, () => unknownPath(c, deps)))
}

function call(c: Context<RelayEnv>, deps: ProxyDeps): Promise<Response> {
  const name = c.req.param('call') ?? ''
  const colon = name.lastIndexOf(':')
  const model = name.slice(0, colon)
  const method = name.slice(colon + 1) as GeminiMethod
  if (colon < 0 || !geminiMethods.includes(method) || !geminiModelPattern.test(model)) return refusingInGoogleTerms(c, () => unknownPath(c, deps))
  const dialect = geminiCall(model, method, c.req.query('alt') === 'sse')
  return method === 'countTokens' ? freeCall(c, deps, dialect) : meteredCall(c, deps, dialect)
}

async function refusingInGoogleTerms(c: Context<RelayEnv>, answer: () => Promise<Response>): Promise<Response> {
  try {
    return await answer()
  } catch (error) {
    if (error instanceof ProxyError) return proxyErrorResponse('gemini', error, c.get('requestId'))
    throw error
  }
}

/** A key limited to some models lists only those. */
async function listModels(c: Context<RelayEnv>, { services }: ProxyDeps): Promise<Response> {
  const identity = await authenticate(c, services)
  const models = (await servedModels(services.db, 'gemini')).filter((model) => mayCall(identity.key, model.id))
  return c.json(geminiModelList(models))
}

async function unknownPath(c: Context<RelayEnv>, { services }: ProxyDeps): Promise<Response> {
  await authenticate(c, services)
  throw new ProxyError(
    'unknown_path',
    `The relay has no ${c.req.method} ${c.req.path}: it serves POST /v1beta/models/{model}:generateContent, :streamGenerateContent and :countTokens, and GET /v1beta/models. Set GOOGLE_GEMINI_BASE_URL to the relay's address without a path (https://relay.example.com).`,
  )
}
