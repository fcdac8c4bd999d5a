/**
 * A route is a contract declaration (relay/contract/endpoint.ts) and its handler. The declaration
 * validates the request, writes the envelope and feeds the OpenAPI document (openapi.ts); the
 * handler's input and output types are read from its schemas.
 */
import type { Context } from 'hono'
import type { Endpoint, PartOutput, ReplyInput } from '../contract/endpoint.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import type { AuthUser } from './authenticate.ts'
import type { RelayEnv } from './relay-env.ts'

export interface HandlerInput<E extends Endpoint> {
  body: PartOutput<E, 'body'>
  query: PartOutput<E, 'query'>
  params: PartOutput<E, 'params'>
  /** The authenticated user when the declaration's `auth` is `'user'` or `'admin'`. */
  user: E['auth'] extends 'user' | 'admin' ? AuthUser : null
  clientIp: string
  /** The language the answer's own texts are written in (Accept-Language, language.ts). */
  lang: ContentLanguage
  c: Context<RelayEnv>
}

export type Handler<E extends Endpoint> = (input: HandlerInput<E>) => Promise<ReplyInput<E>>

/** Type-erased, as the router sees routes. */
export interface Route {
  endpoint: Endpoint
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler: Handler<any>
}

export function defineRoute<E extends Endpoint>(endpoint: E, handler: Handler<E>): Route {
  return { endpoint, handler }
}
