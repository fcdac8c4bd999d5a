/**
 * `GET /api/openapi.json` and `GET /api/docs`, generated from the contract's declarations of
 * the mounted routes (relay/contract/endpoint.ts): the schemas that validate a call, and that
 * the portal parses its replies with, are the ones that document it.
 */
import { z } from 'zod'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi'
import { errorEnvelopeSchema, successEnvelopeSchema } from '../contract/envelope.ts'
import { idempotencyHeader, idempotencyKeyPattern } from './idempotency.ts'
import type { Endpoint } from '../contract/endpoint.ts'

const idempotencyHeaderSchema = z.object({
  [idempotencyHeader]: z.string().regex(idempotencyKeyPattern).optional().meta({
    description:
      'A random key per intended action (16–128 of A–Z a–z 0–9 - _). Sent again, the call answers its first reply (header Idempotent-Replayed: true) instead of acting twice; kept 24 hours.',
  }),
})

function operation(route: Endpoint): ZodOpenApiOperationObject {
  const errors = [
    ...(route.body || route.query || route.params ? ['validation'] : []),
    ...(route.auth === 'user' ? ['unauthenticated', 'token_expired', 'insufficient_scope'] : []),
    ...(route.auth === 'admin' ? ['unauthenticated', 'token_expired', 'not_found'] : []),
    ...(route.errors ?? []),
    ...(route.idempotent ? ['idempotency_in_progress', 'idempotency_key_reused'] : []),
  ]
  return {
    operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.auth === 'user' ? { security: [{ bearer: [route.scope ?? 'profile'] }] } : {}),
    ...(route.auth === 'admin' ? { security: [{ bearer: ['session'] }] } : {}),
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
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  })
}

/** A plain page listing every operation: no scripts, no CDN, readable on any network. */
export function renderDocsPage(document: ReturnType<typeof createDocument>): string {
  const rows: string[] = []
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      const operation = op as { summary?: string; tags?: string[]; security?: unknown[] }
      rows.push(
        `<tr><td>${escapeHtml(operation.tags?.[0] ?? '')}</td><td><code>${method.toUpperCase()}</code></td>` +
          `<td><code>${escapeHtml(path)}</code></td><td>${operation.security ? 'bearer' : ''}</td>` +
          `<td>${escapeHtml(operation.summary ?? '')}</td></tr>`,
      )
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Relay API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccc;padding:.4rem;text-align:left;vertical-align:top}</style>
</head><body>
<h1>Relay API</h1>
<p>${escapeHtml(document.info.description ?? '')}</p>
<p>Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a></p>
<table><thead><tr><th>Area</th><th>Method</th><th>Path</th><th>Auth</th><th>Summary</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</body></html>`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}
