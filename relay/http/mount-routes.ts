import type { Context, Hono } from 'hono'
import type { RelayServices } from '../services.ts'
import { authenticate, authenticateAdmin } from './authenticate.ts'
import { clientIp } from './client-ip.ts'
import { successResponse } from './envelope.ts'
import { requestLanguage } from './language.ts'
import { idempotencyHeader, idempotencyKeyPattern, replayedHeader, runIdempotent } from './idempotency.ts'
import { parseRelayJson } from '../contract/json.ts'
import { RelayError } from './relay-error.ts'
import type { RelayEnv } from './relay-env.ts'
import type { Route } from './route.ts'
import type { Endpoint } from '../contract/endpoint.ts'
import { validate } from './validate.ts'

/** Registers each route on the Hono app: authenticate, validate, run, write the envelope. */
export function mountRoutes(app: Hono<RelayEnv>, routes: readonly Route[], services: RelayServices): void {
  for (const { endpoint: route, handler } of routes) {
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      // Authentication first: an anonymous caller learns nothing from validation messages.
      const user =
        route.auth === 'user' ? await authenticate(c, services, route.scope) : route.auth === 'admin' ? await authenticateAdmin(c, services) : null
      const body = route.body ? validate(route.body, await readJsonBody(c), 'body') : undefined
      const query = route.query ? validate(route.query, c.req.query(), 'query') : undefined
      const params = route.params ? validate(route.params, c.req.param(), 'params') : undefined
      const lang = requestLanguage(c.req.header('accept-language'))
      const run = () => handler({ body, query, params, user, clientIp: clientIp(c, services.config.trustProxy), lang, c })
      const key = route.idempotent ? idempotencyKey(c) : undefined
      const { data, replayed } = key
        ? await runIdempotent(services.db, () => services.clock.now(), { userId: user?.id ?? null, call: `${route.method} ${route.path}`, key, request: { params, body } }, run)
        : { data: await run(), replayed: false }
      if (data instanceof Response) return data
      if (services.config.checkResponses) checkResponse(route, data)
      if (replayed) c.header(replayedHeader, 'true')
      return successResponse(c, data, services.clock.now(), route.status ?? 200)
    })
  }
}

/** The `Idempotency-Key` header, when the caller sent one; a malformed one is refused. */
function idempotencyKey(c: Context): string | undefined {
  const key = c.req.header(idempotencyHeader)
  if (key === undefined) return undefined
  if (!idempotencyKeyPattern.test(key)) {
    throw new RelayError('validation', 'validation failed', { fields: { [idempotencyHeader]: ['16 to 128 letters, digits, - or _'] } })
  }
  return key
}

/** `/api/user/tickets/{id}` → `/api/user/tickets/:id`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1')
}

async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return {}
  try {
    return parseRelayJson(text)
  } catch {
    throw new RelayError('bad_request', 'request body is not valid JSON')
  }
}

/** Keeps the OpenAPI document honest: in tests every reply must match its declared schema. */
function checkResponse(route: Endpoint, data: unknown): void {
  const result = route.response.safeParse(data)
  if (!result.success) {
    throw new Error(`reply of ${route.method.toUpperCase()} ${route.path} breaks its schema: ${result.error.message}`)
  }
}
