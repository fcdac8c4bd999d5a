/**
 * Relay bodies are parsed losslessly (docs/architecture.md §6, docs/architecture.md §5): the relay writes 64-bit ids as bare
 * JSON numbers, which `JSON.parse` would round. Every `id`, every `*_id` field and every integer
 * of 16 or more digits becomes a string; all other numbers stay numbers.
 */
import { isLosslessNumber, parse } from 'lossless-json'

function revive(key: string, value: unknown): unknown {
  if (!isLosslessNumber(value)) return value
  const text = value.value
  if (key === 'id' || key.endsWith('_id') || /^-?\d{16,}$/.test(text)) return text
  return Number(text)
}

export function parseRelayJson(text: string): unknown {
  return parse(text, revive)
}
