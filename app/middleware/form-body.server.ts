/**
 * Every action reads its body as a form. A body that cannot be read as one (a malformed multipart
 * body, a JSON or binary upload) is the sender's mistake: answered 400 here, before any action,
 * instead of the 500 a failing `request.formData()` inside the action would give. The production
 * server caps bodies long before this (docs/decisions/012-request-limits.md), so the extra read
 * of a copy costs little.
 */
import { data, type MiddlewareFunction } from 'react-router'

export const formBodyMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    try {
      await request.clone().formData()
    } catch {
      throw data(null, { status: 400 })
    }
  }
  return next()
}
