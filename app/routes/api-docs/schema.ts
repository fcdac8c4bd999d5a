/**
 * The JSON Schemas of the OpenAPI document made readable (docs/decisions/100-one-declaration-per-call.md): a tree of fields
 * with their types and bounds for the page to render, and an example value generated from the
 * same schema (a declared `examples`, `default`, `const` or first `enum` value wins), so the
 * reference never shows an example the relay would refuse on shape. Runs on the server only: the
 * page receives the trees, not the document.
 */
import { isIdField } from '#relay/contract/json.ts'

export type JsonSchema = { [key: string]: unknown }

/** A bound or rule the page states under a field; `kind` picks its translated label. */
export interface Constraint {
  kind: 'enum' | 'const' | 'format' | 'pattern' | 'min' | 'max' | 'minLength' | 'maxLength' | 'length' | 'minItems' | 'maxItems' | 'default'
  value: string
}

export interface SchemaField {
  name?: string
  /** `string`, `integer`, `object`, `array`, `map`, `oneOf` (variants below) or `any`. */
  type: string
  /** Of an array's items, or a map's values: the type shown as `array<…>`. */
  itemType?: string
  required: boolean
  nullable: boolean
  description?: string
  constraints: Constraint[]
  children: SchemaField[]
  /** Alternatives of a `oneOf`/`anyOf` that are not all plain values, each a field of its own. */
  variants: SchemaField[]
}

/** Deeper than this, a field shows its type only: no schema here nests that far but a recursive one. */
const maxDepth = 8
/** Integers the document bounds by JavaScript's safe range: the bound says nothing to a reader. */
const safeBound = Number.MAX_SAFE_INTEGER

export class SchemaReader {
  constructor(private readonly components: Record<string, JsonSchema>) {}

  /** Follows `$ref`s into `#/components/schemas`. */
  resolve(schema: JsonSchema | undefined): JsonSchema {
    let current = schema ?? {}
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
      current = this.components[current.$ref.replace('#/components/schemas/', '')] ?? {}
    }
    return current
  }

  /** The schema without its `null` alternative, and whether it had one. */
  private unwrapNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean; alternatives: JsonSchema[] } {
    const resolved = this.resolve(schema)
    const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined
    if (union) {
      const alternatives = union.filter((option) => this.resolve(option).type !== 'null')
      const nullable = alternatives.length < union.length
      if (alternatives.length === 1) {
        const inner = this.unwrapNull(alternatives[0]!)
        return { schema: { ...inner.schema, ...(resolved.description ? { description: resolved.description } : {}) }, nullable: nullable || inner.nullable, alternatives: [] }
      }
      return { schema: resolved, nullable, alternatives }
    }
    if (Array.isArray(resolved.type)) {
      const types = (resolved.type as string[]).filter((type) => type !== 'null')
      return { schema: { ...resolved, type: types.length === 1 ? types[0] : types }, nullable: types.length < resolved.type.length, alternatives: [] }
    }
    return { schema: resolved, nullable: false, alternatives: [] }
  }

  field(schema: JsonSchema | undefined, name?: string, required = true, depth = 0): SchemaField {
    const { schema: resolved, nullable, alternatives } = this.unwrapNull(schema ?? {})
    const base = { name, required, nullable, description: typeof resolved.description === 'string' ? resolved.description : undefined }
    // A union of plain values (`'a' | 'b'`) reads as one enum.
    if (alternatives.length > 0) {
      const values = alternatives.map((option) => this.resolve(option)).map((option) => option.const ?? (option.enum as unknown[] | undefined))
      if (values.every((value) => value !== undefined && (typeof value !== 'object' || Array.isArray(value)))) {
        const scalars = values.flat()
        return { ...base, type: typeOf(this.resolve(alternatives[0])), constraints: [{ kind: 'enum', value: scalars.map(String).join(' | ') }], children: [], variants: [] }
      }
      const variants = depth < maxDepth ? alternatives.map((option) => this.field(option, undefined, true, depth + 1)) : []
      return { ...base, type: 'oneOf', constraints: [], children: [], variants }
    }
    const type = typeOf(resolved)
    const constraints = constraintsOf(resolved)
    if (depth >= maxDepth) return { ...base, type, constraints, children: [], variants: [] }
    if (type === 'object') {
      const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>
      const needed = new Set((resolved.required ?? []) as string[])
      const children = Object.entries(properties).map(([key, value]) => this.field(value, key, needed.has(key), depth + 1))
      const values = resolved.additionalProperties
      if (children.length === 0 && values && typeof values === 'object') {
        const item = this.field(values as JsonSchema, undefined, true, depth + 1)
        return { ...base, type: 'map', itemType: item.type, constraints, children: item.children, variants: item.variants }
      }
      return { ...base, type, constraints, children, variants: [] }
    }
    if (type === 'array') {
      const item = this.field(resolved.items as JsonSchema | undefined, undefined, true, depth + 1)
      return { ...base, type, itemType: item.type, constraints: [...constraints, ...item.constraints], children: item.children, variants: item.variants }
    }
    return { ...base, type, constraints, children: [], variants: [] }
  }

  /** A value the schema accepts, for the examples and the curl commands. */
  example(schema: JsonSchema | undefined, name = '', depth = 0): unknown {
    const { schema: resolved, alternatives } = this.unwrapNull(schema ?? {})
    if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return resolved.examples[0]
    if ('example' in resolved) return resolved.example
    if ('default' in resolved) return resolved.default
    if ('const' in resolved) return resolved.const
    if (Array.isArray(resolved.enum)) return resolved.enum[0]
    if (alternatives.length > 0) return this.example(alternatives[0], name, depth)
    if (depth >= maxDepth) return null
    switch (typeOf(resolved)) {
      case 'object': {
        const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>
        const entries = Object.entries(properties).map(([key, value]) => [key, this.example(value, key, depth + 1)])
        if (entries.length === 0 && resolved.additionalProperties && typeof resolved.additionalProperties === 'object') {
          return { key: this.example(resolved.additionalProperties as JsonSchema, 'key', depth + 1) }
        }
        return Object.fromEntries(entries)
      }
      case 'array':
        return [this.example(resolved.items as JsonSchema | undefined, name, depth + 1)]
      case 'integer':
        return integerExample(resolved, name)
      case 'number':
        return typeof resolved.minimum === 'number' && resolved.minimum > 0 ? resolved.minimum : 1.5
      case 'boolean':
        return true
      case 'string':
        return stringExample(resolved, name)
      default:
        return null
    }
  }
}

function typeOf(schema: JsonSchema): string {
  if (typeof schema.type === 'string') return schema.type === 'object' && !schema.properties && !schema.additionalProperties ? 'object' : schema.type
  if (Array.isArray(schema.type)) return (schema.type as string[]).join(' | ')
  if (schema.properties) return 'object'
  if ('const' in schema) return typeof schema.const
  return 'any'
}

function constraintsOf(schema: JsonSchema): Constraint[] {
  const out: Constraint[] = []
  const add = (kind: Constraint['kind'], value: unknown) => {
    if (value !== undefined) out.push({ kind, value: String(value) })
  }
  if ('const' in schema) add('const', JSON.stringify(schema.const))
  if (Array.isArray(schema.enum)) add('enum', schema.enum.map(String).join(' | '))
  if (typeof schema.format === 'string') add('format', schema.format)
  if (schema.minLength !== undefined && schema.minLength === schema.maxLength) add('length', schema.minLength)
  else {
    add('minLength', schema.minLength)
    add('maxLength', schema.maxLength)
  }
  if (typeof schema.minimum === 'number' && Math.abs(schema.minimum) < safeBound) add('min', schema.minimum)
  if (typeof schema.maximum === 'number' && Math.abs(schema.maximum) < safeBound) add('max', schema.maximum)
  add('minItems', schema.minItems)
  add('maxItems', schema.maxItems)
  if (typeof schema.pattern === 'string') add('pattern', schema.pattern)
  if ('default' in schema) add('default', JSON.stringify(schema.default))
  return out
}

/** A 64-bit id (bare in the JSON, as the relay writes it), a time in epoch ms, or a small count. */
function integerExample(schema: JsonSchema, name: string): number | string {
  if (isIdField(name) || schema.format === 'int64') return '7262373947682398208'
  if (name.endsWith('_timestamp') || name === 'timestamp') return 1795680000000
  const minimum = typeof schema.minimum === 'number' && Math.abs(schema.minimum) < safeBound ? schema.minimum : 0
  const maximum = typeof schema.maximum === 'number' && Math.abs(schema.maximum) < safeBound ? schema.maximum : Number.POSITIVE_INFINITY
  return Math.min(Math.max(minimum, 1), maximum)
}

function stringExample(schema: JsonSchema, name: string): string {
  switch (schema.format) {
    case 'email':
      return 'alice@example.com'
    case 'uri':
    case 'url':
      return 'https://example.com/'
    case 'date-time':
      return '2026-11-26T08:00:00Z'
    case 'date':
      return '2026-11-26'
  }
  // A path's `{id}`: a 64-bit id written as a string.
  if (name === 'id') return '7262373947682398208'
  const length = typeof schema.minLength === 'number' ? schema.minLength : 0
  const word = name || 'text'
  return word.length >= length ? word : word.padEnd(length, 'x')
}
