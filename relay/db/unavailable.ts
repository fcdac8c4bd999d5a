/**
 * Whether an error means the database cannot be reached right now (a lost or refused connection,
 * a server shutting down or starting, a statement past its deadline, SQLite's write lock held too
 * long), as opposed to a fault of the call. Such a call is answered with a retryable 503, never a
 * 500: a retry a moment later succeeds once the database is back.
 */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'SQLITE_BUSY',
])

const unreachableMessages = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|statement deadline exceeded|Client was closed and is not queryable/

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  // Class 08: connection exceptions.
  if (typeof code === 'string' && (unreachableCodes.has(code) || code.startsWith('08'))) return true
  return unreachableMessages.test(error.message)
}

/**
 * PostgreSQL gave a statement up over a lock, and rolled its transaction back: a deadlock
 * (`40P01`; the server picks one of the transactions), a `lock_timeout` (`55P03`) or a
 * serialization failure (`40001`). Nothing of it was written, and the same work can succeed a
 * moment later. Looks through `cause` (the migrator wraps its errors).
 */
export function isLockConflict(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code
    if (code === '40P01' || code === '55P03' || code === '40001') return true
  }
  return false
}
