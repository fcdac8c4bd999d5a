/**
 * API keys (docs/architecture.md §5): created with a name, the full key shown once in the create reply, then
 * only its masked form. `GET /api/v1/usage` is the one account call a key (not a login)
 * authenticates: CLI status bars read the balance with it.
 */
import { networkSchema } from './networks.ts'
import { z } from 'zod'
import { idSchema, pointsForecastSchema, timestampSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { idPathParams } from './paths.ts'

export const apiKeyBounds = {
  name: { min: 1, max: 64 },
  /** Live keys one user may hold. */
  perUser: 20,
} as const

/** Every key starts with this, so leaked keys are recognisable (secret scanners, logs). */
export const apiKeyPrefix = 'sk-relay-'
/** `sk-relay-` and 40 base62 characters: about 238 bits, so a plain SHA-256 is a safe hash. */
export const apiKeyPattern = /^sk-relay-[0-9A-Za-z]{40}$/

export const createApiKeyBody = z.object({
  name: z.string().trim().min(apiKeyBounds.name.min).max(apiKeyBounds.name.max),
})
/** An `{id}` beyond the 64-bit range is refused by validation, never passed to PostgreSQL. */
export const apiKeyIdParams = idPathParams

/** Bounds of a key's controls (docs/decisions/050-api-keys-and-their-limits.md). */
export const apiKeyLimitBounds = {
  points: { min: 1, max: 1_000_000_000 },
  rpm: { min: 1, max: 100_000 },
  concurrency: { min: 1, max: 1_000 },
  models: { max: 20, patternMax: 128 },
  networks: { max: 50 },
} as const

const limitOf = (bounds: { min: number; max: number }) => z.int().min(bounds.min).max(bounds.max).nullable()

/** A model name or a pattern with `*` for any characters, matched as prices' patterns are (case ignored). */
export const modelPatternSchema = z
  .string()
  .trim()
  .min(1)
  .max(apiKeyLimitBounds.models.patternMax)
  .regex(/^[A-Za-z0-9*._:/@-]+$/)

/**
 * An owner's controls of one key; null means no limit. The relay enforces them on every /v1
 * call made with the key (relay/keys/limits.ts): a disabled or expired key is refused as an
 * unknown one would be (401), a model outside `allowed_models` or an address outside `allowed_ips`
 * with 403 (on `GET /api/v1/usage` too), and the rest with 429.
 * Quotas count points charged to the key's calls (total, and per calendar day in UTC+8); a
 * call starts while the key has quota left after the calls in flight, so the last one may go
 * past it by its own cost.
 */
export const apiKeyLimitsSchema = z
  .object({
    enabled: z.boolean(),
    expires_timestamp: timestampSchema.nullable(),
    points_quota: limitOf(apiKeyLimitBounds.points),
    daily_points_quota: limitOf(apiKeyLimitBounds.points),
    /** Null: every model the relay serves. */
    allowed_models: z.array(modelPatternSchema).min(1).max(apiKeyLimitBounds.models.max).nullable(),
    rpm_limit: limitOf(apiKeyLimitBounds.rpm),
    concurrency_limit: limitOf(apiKeyLimitBounds.concurrency),
    /** Addresses and CIDR ranges the key may be used from, as the relay sees the client; null: anywhere. */
    allowed_ips: z.array(networkSchema).min(1).max(apiKeyLimitBounds.networks.max).nullable().default(null),
  })
  .meta({ id: 'ApiKeyLimits' })
export type ApiKeyLimits = z.infer<typeof apiKeyLimitsSchema>

/** A key's current use, for comparing with its limits. */
export const apiKeyUseSchema = z
  .object({
    points_used: z.int(),
    /** Today in UTC+8. */
    day_points_used: z.int(),
    /** Calls started in the last minute (refusals not counted). */
    minute_calls: z.int(),
    in_flight: z.int(),
  })
  .meta({ id: 'ApiKeyUse' })
export type ApiKeyUse = z.infer<typeof apiKeyUseSchema>

export const apiKeySchema = z
  .object({
    id: idSchema,
    name: z.string(),
    /** The prefix, asterisks and the last four characters: enough to tell keys apart. */
    masked_key: z.string(),
    create_timestamp: timestampSchema,
    last_used_timestamp: timestampSchema.nullable(),
    limits: apiKeyLimitsSchema,
    use: apiKeyUseSchema,
  })
  .meta({ id: 'ApiKey' })
export type ApiKey = z.infer<typeof apiKeySchema>

/** The create reply: the only time the full key leaves the relay. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() }).meta({ id: 'CreatedApiKey' })
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>

/** Not paged: a user holds at most `apiKeyBounds.perUser` keys. */
export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema), limit: z.int() }).meta({ id: 'ApiKeyList' })
export type ApiKeyList = z.infer<typeof apiKeyListSchema>

export const deletedApiKeySchema = z.object({ id: idSchema })

/** `PUT /api/user/api-keys/{id}/limits`: every control at once; the reply is the key as listed. */
export const setApiKeyLimitsBody = apiKeyLimitsSchema

/**
 * `GET /api/v1/usage`, for status bars. `points` is null while the caller has no points
 * account (no package redeemed yet). `key` is the API key asked with; null when an OAuth access
 * token with the `api` scope asked, and then `client_id` names its client.
 */
export const usageSchema = z
  .object({
    key: z.object({ id: idSchema, name: z.string() }).nullable(),
    client_id: z.string().nullable().optional(),
    user: z.object({ username: z.string(), user_type: z.string() }),
    points: z
      .object({
        balance: z.int(),
        limit: z.int(),
        hour_points: z.int(),
        next_refill_timestamp: timestampSchema.nullable(),
        forecast: pointsForecastSchema,
      })
      .nullable(),
    subscription: z
      .object({
        status: z.string(),
        package_name: z.string().nullable(),
        end_timestamp: timestampSchema.nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'Usage' })
export type Usage = z.infer<typeof usageSchema>

const tag = 'api-keys'

export const apiKeyEndpoints = {
  list: endpoint({
    method: 'get',
    path: '/api/user/api-keys',
    summary: "The caller's API keys, masked",
    tag,
    auth: 'user',
    // Keys are credentials: only a portal login manages them, never a client's delegated token.
    scope: 'session',
    response: apiKeyListSchema,
  }),
  create: endpoint({
    method: 'post',
    path: '/api/user/api-keys',
    summary: 'Create an API key',
    description: 'The reply holds the full key: it is never shown again (only its masked form).',
    tag,
    auth: 'user',
    scope: 'session',
    body: createApiKeyBody,
    response: createdApiKeySchema,
    errors: ['api_key_limit'],
    idempotent: true,
  }),
  delete: endpoint({
    method: 'delete',
    path: '/api/user/api-keys/{id}',
    summary: 'Delete an API key',
    description: 'The key stops authenticating at once.',
    tag,
    auth: 'user',
    scope: 'session',
    params: apiKeyIdParams,
    response: deletedApiKeySchema,
    errors: ['not_found'],
  }),
  limits: endpoint({
    method: 'put',
    path: '/api/user/api-keys/{id}/limits',
    summary: "Set an API key's controls",
    description:
      'Every control at once: on/off, expiry, points quotas (total and per UTC+8 day), allowed models (`*` for any characters), requests per minute and calls at once; null removes a limit. The relay enforces them on the next call made with the key.',
    tag,
    auth: 'user',
    scope: 'session',
    params: apiKeyIdParams,
    body: setApiKeyLimitsBody,
    response: apiKeySchema,
    errors: ['not_found', 'api_key_expiry_past'],
  }),
  usage: endpoint({
    method: 'get',
    path: '/api/v1/usage',
    summary: "The key owner's balance, for CLI status bars",
    description:
      'Authenticated by an API key (`x-api-key` or `Authorization: Bearer sk-relay-…`), or by an OAuth access token granted the `api` scope; not by a portal sign-in.',
    tag,
    auth: 'none',
    apiKey: true,
    response: usageSchema,
    errors: ['unauthenticated', 'insufficient_scope'],
  }),
}
