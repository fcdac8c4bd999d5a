/**
 * A route is declared once: its method, path, zod schemas and handler. The same declaration
 * validates the request, writes the envelope, and feeds the OpenAPI document (openapi.ts).
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import type { ErrorReason } from '../contract/envelope.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import type { AuthUser, RequiredScope } from './authenticate.ts'
import type { RelayEnv } from './relay-env.ts'

type Schema = z.ZodType
type Output<S> = S extends Schema ? z.output<S> : undefined

export type AuthMode = 'none' | 'user'

export interface HandlerInput<B, Q, P, A extends AuthMode> {
  body: B
  query: Q
  params: P
  /** The authenticated user when the route's `auth` is `'user'`. */
  user: A extends 'user' ? AuthUser : null
  clientIp: string
  /** The language the answer's own texts are written in (Accept-Language, language.ts). */
  lang: ContentLanguage
  c: Context<RelayEnv>
}

export interface RouteSpec<
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
  R extends Schema,
  A extends AuthMode,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** OpenAPI style, `/api/user/tickets/{id}`. */
  path: string
  summary: string
  description?: string
  /** OpenAPI tag, usually the domain area. */
  tag: string
  auth: A
  /** With `auth: 'user'`: what the caller's token must hold; default `profile` (authenticate.ts). */
  scope?: RequiredScope
  /** JSON body; an empty body is read as `{}`. */
  body?: B
  /** An object schema over the query string (values arrive as strings: use z.coerce for numbers). */
  query?: Q
  /** An object schema over the `{…}` path parameters. */
  params?: P
  /** Schema of `data` in the success envelope. */
  response: R
  /** Reasons this call can fail with besides validation and auth, for the document. */
  errors?: ErrorReason[]
  status?: 200 | 201
  /**
   * A call that creates something: an `Idempotency-Key` header makes it exactly-once, a repeat
   * answering the first reply (idempotency.ts, docs/decisions/090).
   */
  idempotent?: true
  /**
   * A download: the handler answers a Response of its own of this content type (a streamed CSV),
   * outside the envelope; `response` describes its body.
   */
  download?: string
  handler(input: HandlerInput<Output<B>, Output<Q>, Output<P>, A>): Promise<z.input<R> | Response>
}

/** Type-erased, as the router and the document see routes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Route = RouteSpec<any, any, any, Schema, AuthMode>

/** Identity at runtime; infers the handler's input and output types from the schemas. */
export function defineRoute<
  R extends Schema,
  A extends AuthMode,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(spec: RouteSpec<B, Q, P, R, A>): Route {
  return spec as Route
}
