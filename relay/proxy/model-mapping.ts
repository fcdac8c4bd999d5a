/**
 * A provider's model mapping: the name a request gives (`claude-opus-4-8`) sent upstream under
 * another (`claude-opus-4-8-20261015`), so a dated or renamed model needs no new price or provider
 * pattern. Entries apply in the order written, the first that matches wins; a `*` in both names
 * carries what it matched (`claude-*` → `anthropic/claude-*`). Routing and prices go by the
 * requested name; only the bytes sent upstream and the call record's `upstream_model` change.
 */
import type { ModelMapEntry } from '../contract/admin-ops.ts'

interface CompiledEntry {
  pattern: RegExp
  to: string
}

const compiled = new Map<string, CompiledEntry[]>()

function compile(json: string): CompiledEntry[] {
  let entries = compiled.get(json)
  if (!entries) {
    entries = (JSON.parse(json) as ModelMapEntry[]).map(({ from, to }) => {
      const [prefix = '', suffix] = from.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      return { pattern: new RegExp(suffix === undefined ? `^${prefix}$` : `^${prefix}(.*)${suffix}$`, 'i'), to }
    })
    if (compiled.size >= 1000) compiled.clear()
    compiled.set(json, entries)
  }
  return entries
}

/** The name to send upstream for `model` under a provider's stored mapping (JSON, or null for none). */
export function upstreamModelOf(mapping: string | null, model: string): string {
  if (mapping === null) return model
  for (const { pattern, to } of compile(mapping)) {
    const match = pattern.exec(model)
    if (match) return match[1] === undefined ? to : to.replace('*', match[1])
  }
  return model
}

/** The request body with its `model` replaced: for the APIs that name the model in the body. */
export function withModel(body: Uint8Array, model: string): Uint8Array {
  const request = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as Record<string, unknown>
  return Buffer.from(JSON.stringify({ ...request, model }))
}
