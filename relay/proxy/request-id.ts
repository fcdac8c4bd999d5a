/**
 * Every answer under /v1 and /v1beta carries `x-relay-request-id`: the call's id, minted as the
 * request arrives. A call the relay records (call-log.ts) is recorded under this id, so the id a
 * client saw — in the header, or at the end of a refusal's message (client-errors.ts) — finds the
 * call in the owner's usage log and the operators' call log (docs/console.md). An answer that is
 * not recorded (an unknown key, an unreadable body, a refusal past its key's minute's share,
 * key-charge.ts) carries an id too, which then finds nothing.
 */
import type { Context, Hono, Next } from 'hono'
import { newId } from '../db/ids.ts'
import type { RelayEnv } from '../http/relay-env.ts'

export const requestIdHeader = 'x-relay-request-id'

export function mountRequestIds(app: Hono<RelayEnv>, paths: readonly string[]): void {
  for (const path of paths) app.use(path, requestId)
}

async function requestId(c: Context<RelayEnv>, next: Next): Promise<void> {
  const id = newId()
  c.set('requestId', id)
  await next()
  c.header(requestIdHeader, id)
}
