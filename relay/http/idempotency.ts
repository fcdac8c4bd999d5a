/**
 * Exactly-once for the calls that create something (docs/decisions/005-forms.md). A caller sends an
 * `Idempotency-Key` header; the first request with it claims a row in `idempotent_requests`
 * (its primary key is a digest of caller, call and key, so of two concurrent claims on any
 * number of relays one insert wins), runs, and stores its reply there. A repeat waits for the
 * first to finish and gets the same reply, with `Idempotent-Replayed: true`. A first request
 * that fails releases its claim, so the repeat runs afresh.
 *
 * The database never holds a usable reply on its own: it is sealed with a key derived from the
 * idempotency key, which only the caller has (a new API key's secret sits there for a day).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import type { Database } from '../db/open-database.ts'
import { parseRelayJson, stringifyRelayJson } from '../contract/json.ts'
import { RelayError } from './relay-error.ts'

export const idempotencyHeader = 'Idempotency-Key'
export const replayedHeader = 'Idempotent-Replayed'
export { idempotencyKeyPattern } from '../contract/envelope.ts'

/** How long a reply is kept: long enough for a reload the next morning. */
export const idempotencyKeepMs = 24 * 60 * 60 * 1000
/** A repeat waits this long for the first request before it is told to try again later. */
const waitPolls = 400
const pollMs = 25

export interface IdempotentCall {
  /** The caller's user id; null for calls without a signed-in caller. */
  userId: string | null
  /** Method and path template of the call, e.g. `POST /api/user/tickets/{id}/messages`. */
  call: string
  key: string
  /** What the request asked for (path parameters and body, validated): a reused key must ask the same. */
  request: unknown
}

export interface IdempotentReply {
  data: unknown
  replayed: boolean
}

/** Runs `run` once per key; every repeat answers what the first answered. */
export async function runIdempotent(
  db: Database,
  now: () => number,
  call: IdempotentCall,
  run: () => Promise<unknown>,
): Promise<IdempotentReply> {
  const keyHash = createHash('sha256').update(`${call.userId ?? ''}\n${call.call}\n${call.key}`).digest('hex')
  const requestMac = createHmac('sha256', call.key).update(stringifyRelayJson(call.request ?? null)).digest('hex')

  for (let polls = 0; ; ) {
    const created = now()
    await db.deleteFrom('idempotent_requests').where('create_timestamp', '<', created - idempotencyKeepMs).execute()
    const claim = await db
      .insertInto('idempotent_requests')
      .values({ key_hash: keyHash, user_id: call.userId, request_mac: requestMac, state: 'pending', response: null, create_timestamp: created })
      .onConflict((oc) => oc.column('key_hash').doNothing())
      .executeTakeFirst()
    if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 1) return { data: await runClaimed(db, keyHash, call.key, run), replayed: false }

    // Someone holds the key: the same request running or done, or a different one.
    for (; polls < waitPolls; polls++) {
      const row = await db
        .selectFrom('idempotent_requests')
        .select(['request_mac', 'state', 'response'])
        .where('key_hash', '=', keyHash)
        .executeTakeFirst()
      if (!row) break // the first request failed and let go: claim it again
      if (row.request_mac !== requestMac) throw new RelayError('idempotency_key_reused')
      if (row.state === 'done' && row.response !== null) return { data: open(call.key, keyHash, row.response), replayed: true }
      await new Promise((resolve) => setTimeout(resolve, pollMs))
    }
    if (polls >= waitPolls) throw new RelayError('idempotency_in_progress')
  }
}

async function runClaimed(db: Database, keyHash: string, key: string, run: () => Promise<unknown>): Promise<unknown> {
  let data: unknown
  try {
    data = await run()
  } catch (error) {
    // Nothing was created (each call's changes are one transaction): a repeat may try again.
    await db.deleteFrom('idempotent_requests').where('key_hash', '=', keyHash).where('state', '=', 'pending').execute()
    throw error
  }
  await db
    .updateTable('idempotent_requests')
    .set({ state: 'done', response: seal(key, keyHash, data) })
    .where('key_hash', '=', keyHash)
    .execute()
  return data
}

function sealingKey(key: string, keyHash: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, keyHash, 'relay idempotent reply', 32))
}

function seal(key: string, keyHash: string, data: unknown): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key, keyHash), iv)
  const body = Buffer.concat([cipher.update(stringifyRelayJson(data ?? null), 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

function open(key: string, keyHash: string, sealed: string): unknown {
  const bytes = Buffer.from(sealed, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(key, keyHash), bytes.subarray(0, 12))
  decipher.setAuthTag(bytes.subarray(12, 28))
  const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
  return parseRelayJson(text)
}
