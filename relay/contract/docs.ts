/**
 * The OpenAPI document itself (relay/http/openapi.ts), outside the envelope: the portal's API
 * reference (`/api/docs`, docs/decisions/100-one-declaration-per-call.md) reads it from the relay it talks to, so it shows
 * what that relay serves.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'

/** Only what the portal's reference reads is checked; the rest is OpenAPI 3.1 as zod-openapi writes it. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ operationId: z.string().optional(), summary: z.string().optional(), tags: z.array(z.string()).optional() }))),
  components: z.looseObject({}).optional(),
})
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>

export const docsEndpoints = {
  openapi: endpoint({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document: every call the relay serves, as OpenAPI 3.1',
    tag: 'docs',
    auth: 'none',
    response: openApiDocumentSchema,
    download: 'application/json',
  }),
}
