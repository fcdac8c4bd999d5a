/** Operator commands for the metered relay's upstream providers. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { reportedCircuits, type ReportedCircuit } from './provider-circuits.ts'
import { ProviderKeyBox } from './provider-keys.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { modelMapListSchema, modelPatternListSchema, type ModelMapEntry } from '../contract/admin-ops.ts'
import { isId } from '../contract/ids.ts'
import { addProviderAsOperator, removeProviderAsOperator, setProviderEnabledAsOperator, testProviderAsOperator, updateProviderAsOperator } from './provider-operator.ts'
import { listProviders, providerKinds } from './providers.ts'

/** `--models 'claude-*,claude-3-5-*'`: one option value, patterns separated by commas or spaces. */
const patterns = modelPatternListSchema.optional()

/** `--map 'claude-opus-4-8=claude-opus-4-8-20261015,claude-*=anthropic/claude-*'`: requested=upstream pairs; '' for none. */
const mapping = modelMapListSchema.optional()

/** `a=b, c=d`, or `none`. */
function mappingText(entries: readonly ModelMapEntry[]): string {
  return entries.length > 0 ? entries.map(({ from, to }) => `${from}=${to}`).join(', ') : 'none'
}

const providerArgument = { name: 'id', description: 'provider id (see provider list)' } as const

/** The option a field of `newProviderSchema` came from. */
function optionOf(path: PropertyKey[]): string {
  return path[0] === 'baseUrl' ? 'base-url' : String(path[0])
}

/** An id that cannot be one (not a 64-bit number) is simply not found. */
function providerId(id: string): string {
  if (!isId(id)) throw new Error(`no provider ${id}`)
  return id
}

/** `closed`, `half-open`, or `open until 14:05:10Z` (UTC), with how many relays have it open when more than one. */
function circuitText(circuit: ReportedCircuit | undefined): string {
  if (!circuit) return 'closed'
  if (circuit.state !== 'open') return circuit.state
  const until = `open until ${new Date(circuit.until).toISOString().slice(11, 19)}Z`
  return circuit.relays > 1 ? `${until} on ${circuit.relays} relays` : until
}

export const providerCommands: Command[] = [
  defineCommand({
    name: 'provider add',
    summary: 'Add an upstream provider; prints its id. The key is stored sealed and never shown again',
    options: {
      kind: { description: 'the API it speaks: anthropic (/v1/messages), openai (/v1/chat/completions) or gemini (/v1beta/models/…)', schema: z.enum(providerKinds) },
      'base-url': {
        description: 'as the official SDK takes it: https://api.anthropic.com, https://api.openai.com/v1',
        schema: z.string(),
      },
      key: { description: "the provider's API key", schema: z.string() },
      models: { description: "model patterns it serves, * for any characters: 'claude-*,gpt-4o*' (default *)", schema: patterns },
      map: { description: "requested names sent upstream under others, first match wins: 'claude-opus-4-8=claude-opus-4-8-20261015,claude-*=anthropic/claude-*'", schema: mapping },
      priority: { description: 'higher is tried first; equal priorities share the load (default 0)', schema: z.coerce.number().int().optional() },
    },
    async run(values, { services, print }) {
      const input = { kind: values.kind, baseUrl: values['base-url'], key: values.key, models: values.models, modelMap: values.map, priority: values.priority }
      try {
        const provider = await addProviderAsOperator(services, cliOperator(), input)
        print(provider.id)
      } catch (error) {
        // Never echo the input: it holds the key.
        if (error instanceof z.ZodError) throw new Error(error.issues.map((i) => `--${optionOf(i.path)}: ${i.message}`).join('; '))
        throw error
      }
    },
  }),

  defineCommand({
    name: 'provider list',
    summary: 'Every provider: id, kind, priority, status, circuit state as the relays report it, masked key, base URL, model patterns',
    options: {},
    async run(_values, { services, print }) {
      const providers = await listProviders(services.db, new ProviderKeyBox(services.config.jwtSecrets))
      const circuits = await reportedCircuits(services.db, services.clock.now())
      const states = new Map(providers.map((p) => [p.id, circuitText(circuits.get(p.id))]))
      const url = Math.max(8, ...providers.map((p) => p.base_url.length))
      const state = Math.max(6, ...[...states.values()].map((s) => s.length))
      print(['id'.padEnd(providers[0]?.id.length ?? 18), 'kind'.padEnd(9), 'prio.', 'status'.padEnd(8), 'state'.padEnd(state), 'key'.padEnd(14), 'base URL'.padEnd(url), 'models'].join('  '))
      if (providers.length === 0) print('no providers: add one with "provider add"')
      for (const p of providers) {
        const status = p.enabled ? (p.key_readable ? 'enabled' : 'KEY UNREADABLE: re-add') : 'disabled'
        print([p.id, p.kind.padEnd(9), String(p.priority).padStart(5), status.padEnd(8), states.get(p.id)!.padEnd(state), p.key.padEnd(14), p.base_url.padEnd(url), p.models.join(',')].join('  '))
      }
    },
  }),

  defineCommand({
    name: 'provider disable',
    summary: 'Stop sending calls to a provider (calls in flight finish)',
    argument: providerArgument,
    options: {},
    async run({ id }, { services, print }) {
      await setProviderEnabledAsOperator(services, cliOperator(), { id: providerId(id), enabled: false })
      print(`provider ${id} disabled`)
    },
  }),

  defineCommand({
    name: 'provider enable',
    summary: 'Send calls to a disabled provider again',
    argument: providerArgument,
    options: {},
    async run({ id }, { services, print }) {
      await setProviderEnabledAsOperator(services, cliOperator(), { id: providerId(id), enabled: true })
      print(`provider ${id} enabled`)
    },
  }),

  defineCommand({
    name: 'provider remove',
    summary: 'Delete a provider and its key (its calls stay on record)',
    argument: providerArgument,
    options: {},
    async run({ id }, { services, print }) {
      await removeProviderAsOperator(services, cliOperator(), providerId(id))
      print(`provider ${id} removed`)
    },
  }),

  defineCommand({
    name: 'provider set',
    summary: "Change a provider's priority, model patterns and/or model mapping",
    argument: providerArgument,
    options: {
      models: { description: "model patterns it serves, replacing the old ones: 'claude-*,gpt-4o*'", schema: patterns },
      map: { description: "its model mapping, replacing the old one ('' for none): 'claude-opus-4-8=claude-opus-4-8-20261015'", schema: mapping },
      priority: { description: 'higher is tried first; equal priorities share the load', schema: z.coerce.number().int().min(-1000).max(1000).optional() },
    },
    async run({ id, models, map, priority }, { services, print }) {
      const provider = await updateProviderAsOperator(services, cliOperator(), { id: providerId(id), models, modelMap: map, priority })
      print(`provider ${id}: priority ${provider.priority}, models ${provider.models.join(',')}, mapping ${mappingText(provider.model_map)}`)
    },
  }),

  defineCommand({
    name: 'provider test',
    summary: 'Send a provider one minimal call (one output token) and print its status and time',
    argument: providerArgument,
    options: { model: { description: "the model to ask (default: its first pattern without *, else the first priced model it serves)", schema: z.string().optional() } },
    async run({ id, model }, { services, print }) {
      const test = await testProviderAsOperator(services, cliOperator(), { id: providerId(id), model })
      print(`${test.ok ? 'ok' : 'failed'}: ${test.model}, ${test.status === null ? test.error : `HTTP ${test.status}`}, ${test.latency_ms} ms`)
    },
  }),
]
