/**
 * API keys (docs/architecture.md §5): created with a name, the full key shown once in the create reply, then
 * only its masked form. `GET /api/v1/usage` is the one account call a key (not a login)
 * authenticates: CLI status bars read the balance with it.
 */
import { z } from 'zod'
import { idSchema, timestampSchema } from './accounts.ts'
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

export const apiKeySchema = z
  .object({
    id: idSchema,
    name: z.string(),
    /** The prefix, asterisks and the last four characters: enough to tell keys apart. */
    masked_key: z.string(),
    create_timestamp: timestampSchema,
    last_used_timestamp: timestampSchema.nullable(),
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
  usage: endpoint({
    method: 'get',
    path: '/api/v1/usage',
    summary: "The key owner's balance, for CLI status bars",
    description:
      'Authenticated by an API key (`x-api-key` or `Authorization: Bearer sk-relay-…`), or by an OAuth access token granted the `api` scope; not by a portal sign-in.',
    tag,
    auth: 'none',
    response: usageSchema,
    errors: ['unauthenticated', 'insufficient_scope'],
  }),
}
