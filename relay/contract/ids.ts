/**
 * The one rule for the relay's ids (drawn by db/ids.ts): 64-bit integers, decimal strings of
 * 1–19 digits in JavaScript, bare integers on the wire (json.ts). An id a caller sends is checked
 * against it before any query: one past BIGINT would make PostgreSQL fail where a lookup should
 * find nothing.
 */
import { z } from 'zod'

/** An id's digits, for the patterns that embed one (team codes, usage cursors). */
export const idDigits = /\d{1,19}/
const idPattern = new RegExp(`^${idDigits.source}$`)
const maxId = 2n ** 63n - 1n

export function isId(text: string): boolean {
  return idPattern.test(text) && BigInt(text) <= maxId
}

/** An id a caller sends: a path parameter, form field, query value or CLI argument. */
export const idInputSchema = z.string().refine(isId, 'must be a 64-bit id')
