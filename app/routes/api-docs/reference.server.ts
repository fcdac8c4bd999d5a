/**
 * The API reference's data (docs/decisions/100-one-declaration-per-call.md): the OpenAPI document of the relay this portal
 * talks to, read through the one relay client (`GET /api/openapi.json`, a declared download), cut
 * into what a page shows: per tag its calls, each with auth, parameters, schemas as field trees,
 * examples and a curl command on the deployment's public address. Pages get these views, never
 * the 140 kB document.
 */
import type { RouterContextProvider } from 'react-router'
import { endpoints, errorCodes, operationId, openApiDocumentSchema, parseRelayJson, stringifyRelayJson, type Endpoint, type ErrorReason, type OpenApiDocument } from '#relay/contract/index.ts'
import { getRelay, getSession } from '#app/middleware/session.server.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { SchemaReader, type JsonSchema, type SchemaField } from './schema.ts'

export type AuthKind = 'none' | 'user' | 'admin' | 'apiKey'

export interface ParameterView {
  in: 'path' | 'query' | 'header'
  field: SchemaField
  /** What the curl command and the try-it form start from. */
  example: string
}

export interface OperationView {
  id: string
  method: string
  path: string
  tag: string
  /** The document's own (English) texts: the page shows its translation when it has one. */
  summary: string
  description?: string
  auth: { kind: AuthKind; scope?: string }
  parameters: ParameterView[]
  body?: SchemaField
  /** `enveloped`: `field` is the envelope's `data`; else the whole answer (a download, the /v1 API). */
  response: { status: string; contentType: string; enveloped: boolean; field: SchemaField }
  errors: Array<{ reason: string; code?: number }>
  /** Answers outside the envelope the document lists by HTTP status (the /v1 API's), as it words them. */
  statuses: Array<{ status: string; description: string }>
  requestExample?: string
  responseExample?: string
  curl: string
  /** A read a signed-in user may make from the page (try-it form). */
  tryable: boolean
}

export interface TagView {
  tag: string
  operations: Array<Pick<OperationView, 'id' | 'method' | 'path' | 'summary' | 'auth'>>
}

/** The calls this portal knows, by operation id: the try-it form calls them through `relay.call`. */
const declared = new Map<string, Endpoint>(
  Object.values(endpoints)
    .flatMap((area) => Object.values(area) as Endpoint[])
    .map((call) => [operationId(call), call]),
)

/**
 * Reads a signed-in user may try from the page: GETs in the envelope. Writes are left to curl:
 * one click on a reference page must not delete a key or end the session; `none` calls need no
 * account, and `/api/v1/usage` takes an API key, never the portal's session.
 */
export function tryableCall(id: string): Endpoint | undefined {
  const call = declared.get(id)
  return call && call.method === 'get' && call.auth === 'user' && !call.download ? call : undefined
}

async function loadDocument(context: Readonly<RouterContextProvider>): Promise<OpenApiDocument> {
  const response = await getRelay(context).download(endpoints.docs.openapi)
  return openApiDocumentSchema.parse(parseRelayJson(await response.text()))
}

interface RawOperation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: Array<Record<string, string[]>>
  parameters?: Array<{ in: 'path' | 'query' | 'header'; name: string; required?: boolean; description?: string; schema?: JsonSchema }>
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>
  'x-error-reasons'?: string[]
}

function operations(document: OpenApiDocument): Array<{ method: string; path: string; raw: RawOperation }> {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, raw]) => ({ method, path, raw: raw as RawOperation })))
}

function authOf(id: string, raw: RawOperation): OperationView['auth'] {
  const schemes = (raw.security ?? []).flatMap((requirement) => Object.entries(requirement))
  if (schemes.length === 0) return { kind: 'none' }
  if (schemes.some(([scheme]) => scheme === 'apiKey')) return { kind: 'apiKey' }
  if (declared.get(id)?.auth === 'admin') return { kind: 'admin' }
  return { kind: 'user', scope: schemes[0]![1][0] }
}

/** Every tag in the document's order, with the one-line view of each of its calls. */
function tagsOf(document: OpenApiDocument): TagView[] {
  const tags = new Map<string, TagView>()
  for (const { method, path, raw } of operations(document)) {
    const tag = raw.tags?.[0] ?? 'other'
    const id = raw.operationId ?? operationId({ method: method as Endpoint['method'], path })
    if (!tags.has(tag)) tags.set(tag, { tag, operations: [] })
    tags.get(tag)!.operations.push({ id, method, path, summary: raw.summary ?? '', auth: authOf(id, raw) })
  }
  return [...tags.values()]
}

/**
 * The OpenAPI document and the tags a reader may see: the operator console's calls only to an operator, as `/admin` shows
 * itself only to them (anyone else gets the same 404 there, so the reference must not list it).
 */
export async function loadReference(context: Readonly<RouterContextProvider>): Promise<{ document: OpenApiDocument; tags: TagView[] }> {
  // The reader is asked for beside the document, not after it.
  const [document, info] = await Promise.all([loadDocument(context), getSession(context) ? optionalRead(getRelay(context).call(endpoints.accounts.info)) : null])
  const tags = tagsOf(document)
  if (info?.user.user_type === 'admin') return { document, tags }
  return { document, tags: tags.filter((tag) => tag.operations.some((operation) => operation.auth.kind !== 'admin')) }
}

/** `'…'` for a POSIX shell. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

function exampleText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** The full views of one tag's calls; `baseUrl` is where CLI clients reach the relay (apiBaseUrl). */
export function operationsOf(document: OpenApiDocument, tag: string, baseUrl: string): OperationView[] {
  const reader = new SchemaReader(((document.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas ?? {}) as Record<string, JsonSchema>)
  return operations(document)
    .filter(({ raw }) => (raw.tags?.[0] ?? 'other') === tag)
    .map(({ method, path, raw }) => {
      const id = raw.operationId ?? operationId({ method: method as Endpoint['method'], path })
      const auth = authOf(id, raw)
      const parameters = (raw.parameters ?? []).map((parameter) => ({
        in: parameter.in,
        field: { ...reader.field(parameter.schema, parameter.name, parameter.required ?? false), description: parameter.description ?? reader.field(parameter.schema).description },
        example: exampleText(reader.example(parameter.schema, parameter.name)),
      }))
      const bodySchema = raw.requestBody?.content?.['application/json']?.schema
      const [status, reply] = Object.entries(raw.responses ?? {}).find(([code]) => code.startsWith('2')) ?? ['200', {}]
      const [contentType, content] = Object.entries(reply.content ?? {})[0] ?? ['application/json', {}]
      const replySchema = reader.resolve(content.schema)
      // In the envelope, what varies is `data`; the envelope itself is explained once on /api/docs.
      const enveloped = contentType === 'application/json' && !!(replySchema.properties as Record<string, JsonSchema> | undefined)?.data
      const dataSchema = enveloped ? (replySchema.properties as Record<string, JsonSchema>).data : content.schema
      const body = bodySchema ? reader.example(bodySchema) : undefined

      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters.find((p) => p.field.name === name)?.example ?? name))
      const query = new URLSearchParams(parameters.filter((p) => p.in === 'query' && p.field.required).map((p) => [p.field.name!, p.example]))
      const url = `${baseUrl}${filled}${query.size > 0 ? `?${query}` : ''}`
      const curl = [
        `curl -sS${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${quote(url)}`,
        ...(auth.kind === 'user' || auth.kind === 'admin' ? ['-H "Authorization: Bearer $RELAY_TOKEN"'] : []),
        ...(auth.kind === 'apiKey' ? ['-H "x-api-key: $RELAY_API_KEY"'] : []),
        ...(path.startsWith('/v1/messages') ? ["-H 'anthropic-version: 2023-06-01'"] : []),
        ...(parameters.some((p) => p.in === 'header' && p.field.name?.toLowerCase() === 'idempotency-key') ? ['-H "Idempotency-Key: $(uuidgen)"'] : []),
        ...(body !== undefined ? ["-H 'Content-Type: application/json'", `-d ${quote(stringifyRelayJson(body))}`] : []),
      ].join(' \\\n  ')

      const reasons = raw['x-error-reasons'] ?? []
      return {
        id,
        method,
        path,
        tag,
        summary: raw.summary ?? '',
        ...(raw.description ? { description: raw.description } : {}),
        auth,
        parameters,
        ...(bodySchema ? { body: reader.field(bodySchema) } : {}),
        response: { status, contentType, enveloped, field: reader.field(dataSchema) },
        errors: reasons.map((reason) => ({ reason, code: errorCodes[reason as ErrorReason] })),
        statuses: Object.entries(raw.responses ?? {})
          .filter(([code]) => /^[3-5]\d\d$/.test(code))
          .map(([code, answer]) => ({ status: code, description: answer.description ?? '' })),
        ...(body !== undefined ? { requestExample: stringifyRelayJson(body, 2) } : {}),
        ...(content.schema && contentType === 'application/json' ? { responseExample: stringifyRelayJson(reader.example(content.schema), 2) } : {}),
        curl,
        tryable: tryableCall(id) !== undefined,
      }
    })
}
