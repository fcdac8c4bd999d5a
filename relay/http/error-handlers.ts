import type { ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import type { Logger } from '../logger.ts'
import { errorResponse } from './envelope.ts'
import { RelayError } from './relay-error.ts'

/** What a client is told to wait before retrying a call the database could not take. */
export const databaseRetryAfterSeconds = 5

/** RelayError → its envelope; a database out of reach → a retryable 503; anything else → 500 `internal`, logged, details kept from the caller. */
export function handleError(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof RelayError) return errorResponse(c, error)
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, new RelayError('bad_request', error.message || undefined))
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn('database unavailable', { method: c.req.method, path: c.req.path, error: error.message })
      return errorResponse(c, new RelayError('unavailable', 'the database is unreachable for a moment: try again shortly'), {
        'retry-after': String(databaseRetryAfterSeconds),
      })
    }
    logger.error('unhandled error', { method: c.req.method, path: c.req.path, error: error.stack ?? String(error) })
    return errorResponse(c, new RelayError('internal'))
  }
}

export const handleNotFound: NotFoundHandler = (c) =>
  errorResponse(c, new RelayError('not_found', `no route for ${c.req.method} ${c.req.path}`))
