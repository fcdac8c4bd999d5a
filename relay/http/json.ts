/**
 * JSON in and out with 64-bit ids intact (docs/decisions/010). On the way out, every id field
 * (`id`, `*_id`, `*_by`: see isIdColumn) holding a decimal string is written as a bare JSON
 * number; on the way in, every number in such a field becomes a decimal string and other
 * numbers become JS numbers.
 */
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json'
import { isIdColumn } from '../db/integer-results.ts'

const decimal = /^-?\d+$/

export function stringifyRelayJson(value: unknown): string {
  return (
    stringify(value, (key, field) =>
      typeof field === 'string' && isIdColumn(key) && decimal.test(field) ? new LosslessNumber(field) : field,
    ) ?? 'null'
  )
}

/** Throws SyntaxError on malformed JSON. */
export function parseRelayJson(text: string): unknown {
  return parse(text, (key, value) => {
    if (!isLosslessNumber(value)) return value
    return isIdColumn(key) ? value.toString() : value.valueOf()
  })
}
