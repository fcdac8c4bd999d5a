/**
 * `GET /api/openapi.json`, generated from the contract's declarations of the mounted routes
 * (relay/contract/endpoint.ts): the schemas that validate a call, and that the portal parses its
 * replies with, are the ones that document it. The portal renders it at `/api/docs`
 * (docs/decisions/100-one-declaration-per-call.md).
 */
import { z } from 'zod'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi'
import { errorEnvelopeSchema, successEnvelopeSchema } from '../contract/envelope.ts'
import { idempotencyHeader, idempotencyKeyPattern } from './idempotency.ts'
import { operationId, type Endpoint } from '../contract/endpoint.ts'

const idempotencyHeaderSchema = z.object({
  [idempotencyHeader]: z.string().regex(idempotencyKeyPattern).optional().meta({
    description:
      'A random key per intended action (16–128 of A–Z a–z 0–9 - _). Sent again, the call answers its first reply (header Idempotent-Replayed: true) instead of acting twice; kept 24 hours.',
  }),
})

/** How the /v1 API and the calls declared `apiKey` authenticate: an API key either way, or an OAuth token with the `api` scope. */
export const apiKeySecurity: Array<Record<string, string[]>> = [{ apiKey: [] }, { apiKeyBearer: [] }, { oauthApi: ['api'] }]

function operation(route: Endpoint): ZodOpenApiOperationObject {
  const errors = [
    ...(route.body || route.query || route.params ? ['validation'] : []),
    ...(route.auth === 'user' ? ['unauthenticated', 'token_expired', 'insufficient_scope'] : []),
    ...(route.auth === 'admin' ? ['unauthenticated', 'token_expired', 'not_found'] : []),
    ...(route.errors ?? []),
    ...(route.idempotent ? ['idempotency_in_progress', 'idempotency_key_reused'] : []),
  ]
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.auth === 'user' ? { security: [{ bearer: [route.scope ?? 'profile'] }] } : {}),
    ...(route.auth === 'admin' ? { security: [{ bearer: ['session'] }] } : {}),
    ...(route.auth === 'none' && route.apiKey ? { security: apiKeySecurity } : {}),
    ...(route.query || route.params || route.idempotent
      ? {
          requestParams: {
            ...(route.query ? { query: route.query } : {}),
            ...(route.params ? { path: route.params } : {}),
            ...(route.idempotent ? { header: idempotencyHeaderSchema } : {}),
          },
        }
      : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      [String(route.status ?? 200)]: route.download
        ? { description: 'The download', content: { [route.download]: { schema: route.response } } }
        : { description: 'Success envelope', content: { 'application/json': { schema: successEnvelopeSchema(route.response) } } },
      default: {
        description: `Error envelope. Reasons: ${errors.join(', ') || 'internal'}.`,
        content: { 'application/json': { schema: errorEnvelopeSchema } },
      },
    },
    // The same reasons, readable by the portal's reference, which shows each one's code and message.
    'x-error-reasons': errors,
  }
}

export function createOpenApiDocument(routes: readonly Endpoint[], serverUrl: string): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) }
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Relay API',
      version: '1.0.0',
      description:
        'Every reply is an envelope: `{code:0,data,message,timestamp}` or `{code,message,error:{details:{reason}}}`. ' +
        'Ids are 64-bit integers written as bare JSON numbers: parse them losslessly.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apiKeyBearer: { type: 'http', scheme: 'bearer', description: 'An API key (sk-relay-…) as a Bearer token' },
        oauthApi: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An OAuth access token granted the api scope (docs/oauth.md)' },
      },
    },
    paths,
  })
}
