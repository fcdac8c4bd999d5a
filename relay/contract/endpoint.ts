/**
 * One declaration per call (docs/decisions/100-one-declaration-per-call.md): method, path, the zod schemas of its path
 * parameters, query, body and reply, and what the document says of it. The relay serves it
 * (relay/http/route.ts `defineRoute` takes the declaration and a handler typed from it) and
 * documents it (relay/http/openapi.ts); the portal calls it (app/utils/relay-client.server.ts
 * `relay.call`), checking the reply with the same response schema. Types come from the schemas
 * only (`z.infer`), so no hand-written shape can drift from what is validated.
 */
import type { z } from 'zod'
import type { ErrorReason } from './envelope.ts'
import type { OAuthScope } from './oauth-scopes.ts'

/**
 * What a call needs of the caller's token (docs/decisions/011-tokens-and-scopes.md): a scope an external client can
 * be granted, or `session`, a portal login only (calls that grant access to clients). A portal
 * login's token holds every scope; a client's token only those the user granted it.
 */
export type RequiredScope = OAuthScope | 'session'

/**
 * `user`: any signed-in caller, as `scope` allows. `admin`: the operator console
 * (docs/decisions/115-operator-console.md): a portal login (never a client's token, never an API key) of a user of
 * type `admin`; any other caller is answered as if the call did not exist.
 */
export type AuthMode = 'none' | 'user' | 'admin'

/** A schema over named string values: path parameters, the query string. */
type ObjectSchema = z.ZodType<unknown, Record<string, unknown>>

export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** OpenAPI style, `/api/user/tickets/{id}`; `params` names every `{…}`. */
  path: string
  summary: string
  description?: string
  /** OpenAPI tag, usually the domain area. */
  tag: string
  auth: AuthMode
  /**
   * With `auth: 'none'`: the handler itself authenticates an API key, or an OAuth token granted
   * the `api` scope, as the /v1 API does (`GET /api/v1/usage`); the document says so.
   */
  apiKey?: boolean
  /** With `auth: 'user'`: what the caller's token must hold; default `profile`. Ignored for `admin`. */
  scope?: RequiredScope
  /** An object schema over the `{…}` path parameters. */
  params?: ObjectSchema
  /** An object schema over the query string (values arrive as strings: use z.coerce for numbers). */
  query?: ObjectSchema
  /** JSON body; an empty body is read as `{}`. */
  body?: z.ZodType
  /** Schema of `data` in the success envelope. */
  response: z.ZodType
  /** Reasons this call can fail with besides validation and auth, for the document. */
  errors?: readonly ErrorReason[]
  status?: 200 | 201
  /**
   * A call that creates something: an `Idempotency-Key` header makes it exactly-once, a repeat
   * answering the first reply (docs/decisions/005-forms.md).
   */
  idempotent?: boolean
  /**
   * A download (the usage log's CSV): the relay answers a body of this content type, streamed
   * outside the envelope, and `response` describes that body; the portal passes it on unread
   * (`relay.download`).
   */
  download?: string
}

/** Identity at runtime; keeps the literal types (method, auth, idempotent) and the schemas' own types. */
export function endpoint<const E extends Endpoint>(declaration: E): E {
  return declaration
}

/**
 * The call's OpenAPI `operationId`, made from its method and path (`get /api/user/points` →
 * `getApiUserPoints`): the document names operations with it, and the portal's API reference keys
 * each call's translated texts and its try-it form by it.
 */
export function operationId(call: Pick<Endpoint, 'method' | 'path'>): string {
  return `${call.method}${call.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}`
}

/** A declared part's type after validation (what the relay's handler gets), or undefined without one. */
export type PartOutput<E extends Endpoint, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined
/** A declared part's type before validation (what a caller sends), or undefined without one. */
export type PartInput<E extends Endpoint, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType } ? z.input<S> : undefined
/** The reply's `data` as the caller reads it (parsed with the response schema). */
export type Reply<E extends Endpoint> = z.output<E['response']>
/** The reply's `data` as the relay's handler may hand it over (before the schema's defaults); a download's own Response. */
export type ReplyInput<E extends Endpoint> = E extends { download: string } ? Response : z.input<E['response']>
