/**
 * The one rule for 64-bit integers on the wire (docs/decisions/010-ids-strings-inside-bare-numbers-on-the-wire.md), used by both halves: the
 * relay writes and reads its bodies with it (relay/http/envelope.ts, mount-routes.ts), its
 * database plugin settles driver values on it (relay/db/integer-results.ts), and the portal's
 * relay client reads and writes with it (app/utils/relay-client.server.ts).
 *
 * - An id field (`id`, `*_id`, `*_by`: see isIdField) is a decimal string in JS, whatever its
 *   size, and a bare JSON number on the wire.
 * - Any other integer is a JS number when it is a safe integer, else a decimal string (which
 *   `JSON.parse` would have rounded).
 */
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json'

/**
 * Which columns and JSON fields hold 64-bit ids: `id`, `*_id`, and `*_by` (a user reference such
 * as `invited_by`). Name new columns and reply fields accordingly.
 */
export function isIdField(name: string): boolean {
  return name === 'id' || name.endsWith('_id') || name.endsWith('_by')
}

/** An integer outside the id fields: a JS number when safe, else its decimal string. */
export function integerValue(value: bigint | string): number | string {
  const big = typeof value === 'bigint' ? value : BigInt(value)
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString()
}

const decimal = /^-?\d+$/

/** Every id field holding a decimal string goes out as a bare JSON number; `space` indents, for reading. */
export function stringifyRelayJson(value: unknown, space?: number): string {
  return (
    stringify(
      value,
      (key, field) => (typeof field === 'string' && isIdField(key) && decimal.test(field) ? new LosslessNumber(field) : field),
      space,
    ) ?? 'null'
  )
}

/** Throws SyntaxError on malformed JSON. */
export function parseRelayJson(text: string): unknown {
  return parse(text, (key, value) => {
    if (!isLosslessNumber(value)) return value
    if (isIdField(key)) return value.toString()
    return decimal.test(value.value) ? integerValue(value.value) : Number(value.value)
  })
}
