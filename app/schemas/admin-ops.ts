/**
 * Forms of the console's operations screens (providers, prices, assignment); bounds and choices
 * from the relay contract, messages are translation keys. The relay validates again (its own
 * English messages reach the form only for what these do not check).
 */
import { z } from 'zod'
import { adminListPricesSchema, modelCostKinds, modelMapListSchema, modelPatternSchema, providerKinds, reconciliationQuery, type AdminListPrices } from '#relay/contract/index.ts'
import { requiredText } from './auth.ts'

const patternsMessage = 'admin:ops.providers.modelsInvalid'
const priorityMessage = 'admin:ops.providers.priorityInvalid'

/** Patterns separated by commas or spaces, `*` for any characters. */
const modelPatterns = z
  .string({ error: patternsMessage })
  .trim()
  .min(1, patternsMessage)
  .max(2000, 'validation:tooLong')
  .regex(/^[A-Za-z0-9*._:/@,\s-]+$/, patternsMessage)

/** `requested=upstream` pairs, checked by the relay's own rule; blank for no mapping. */
const modelMap = z
  .string()
  .trim()
  .max(4000, 'validation:tooLong')
  .refine((text) => modelMapListSchema.safeParse(text).success, 'admin:ops.providers.mapInvalid')
  .default('')

const priority = z
  .string({ error: priorityMessage })
  .trim()
  .regex(/^-?\d{1,4}$/, priorityMessage)
  .transform(Number)
  .pipe(z.number().min(-1000, priorityMessage).max(1000, priorityMessage))

export const addProviderSchema = z.object({
  kind: z.enum(providerKinds),
  base_url: requiredText(512, 'admin:ops.providers.baseUrlRequired').pipe(z.url({ protocol: /^https?$/, error: 'admin:ops.providers.baseUrlInvalid' })),
  key: requiredText(512, 'admin:ops.providers.keyRequired').pipe(z.string().min(8, 'admin:ops.providers.keyShort')),
  models: modelPatterns,
  model_map: modelMap,
  priority,
})

export const updateProviderSchema = z.object({ models: modelPatterns, model_map: modelMap, priority })

const rateMessage = 'admin:ops.pricing.rateInvalid'
/** Points: empty means none. */
const rate = z
  .string()
  .trim()
  .regex(/^\d{1,8}$/, rateMessage)
  .transform(Number)
  .optional()

export const priceSchema = z
  .object({
    model: requiredText(128, 'admin:ops.pricing.modelRequired').pipe(z.string().regex(/^[A-Za-z0-9._:/@*[\]-]+$/, 'admin:ops.pricing.modelInvalid')),
    kind: z.enum(modelCostKinds),
    points_per_call: rate,
    input_points_per_mtok: rate,
    output_points_per_mtok: rate,
    cache_read_points_per_mtok: rate,
    cache_write_points_per_mtok: rate,
    cache_write_1h_points_per_mtok: rate,
    web_search_points: rate,
    long_context_threshold: rate,
    long_context_input_percent: rate,
    long_context_output_percent: rate,
    description: z.string().trim().max(255, 'validation:tooLong').optional(),
  })
  .superRefine((price, ctx) => {
    const tier = [price.long_context_input_percent, price.long_context_output_percent].some((percent) => percent !== undefined)
    if (tier !== (price.long_context_threshold !== undefined)) ctx.addIssue({ code: 'custom', path: ['long_context_threshold'], message: 'admin:ops.pricing.tierInvalid' })
    if (price.kind === 'fixed' && price.points_per_call === undefined) ctx.addIssue({ code: 'custom', path: ['points_per_call'], message: 'admin:ops.pricing.perCallRequired' })
    if (price.kind === 'variable') {
      for (const field of ['input_points_per_mtok', 'output_points_per_mtok'] as const) {
        if (price[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'admin:ops.pricing.ratesRequired' })
      }
    }
  })

/** A status-page incident: a title everyone reads, and what happened and what to do. */
export const incidentFormSchema = z.object({
  title: requiredText(200),
  body: z.string().trim().max(4000, 'validation:tooLong').optional(),
})

/** The reconciliation month a page or its CSV is asked for (`?month=YYYY-MM`), else the current one (UTC). */
export function monthOf(request: Request): string {
  const asked = reconciliationQuery.safeParse({ month: new URL(request.url).searchParams.get('month') })
  return asked.success ? asked.data.month : new Date().toISOString().slice(0, 7)
}

const usdPerMtok = /^\d{1,6}(\.\d{1,2})?$/
const cents = (usd: string) => Math.round(Number(usd) * 100)

/** One list price a line: `model input output`, US dollars per million tokens. */
function listPriceLine(line: string) {
  const [model, input, output, ...rest] = line.trim().split(/\s+/)
  if (rest.length > 0 || !input || !output || !usdPerMtok.test(input) || !usdPerMtok.test(output) || !modelPatternSchema.safeParse(model).success) return null
  return { model: model!, input_cents_per_mtok: cents(input), output_cents_per_mtok: cents(output) }
}

const linesMessage = 'admin:listPrices.linesInvalid'

/** The list prices' form: the day they were read, that day's rate, and one price a line. */
export const listPricesFormSchema = z.object({
  read_on: z.iso.date('admin:listPrices.dateInvalid'),
  cny_per_usd: z
    .string({ error: 'admin:listPrices.rateInvalid' })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, 'admin:listPrices.rateInvalid')
    .transform((rate) => Math.round(Number(rate) * 100))
    .pipe(adminListPricesSchema.shape.fen_per_usd.min(100, 'admin:listPrices.rateInvalid')),
  lines: z
    .string({ error: linesMessage })
    .max(500 * 80, 'validation:tooLong')
    .transform((text) => text.split('\n').filter((line) => line.trim() !== '').map(listPriceLine))
    .refine((rows) => rows.length > 0 && rows.every((row) => row !== null), { message: linesMessage, abort: true })
    .refine((rows) => new Set(rows.map((row) => row!.model.toLowerCase())).size === rows.length, 'admin:listPrices.linesTwice'),
})

/** The relay's body from the form's parsed value. */
export function listPricesBody(value: z.output<typeof listPricesFormSchema>): AdminListPrices {
  return { read_on: value.read_on, fen_per_usd: value.cny_per_usd, items: value.lines.map((row) => row!) }
}

/** The form's text of the relay's list prices. */
export function listPricesText(list: AdminListPrices): { read_on: string; cny_per_usd: string; lines: string } {
  const usd = (cents: number) => (cents / 100).toFixed(2).replace(/\.?0+$/, '')
  return {
    read_on: list.read_on,
    cny_per_usd: (list.fen_per_usd / 100).toFixed(2),
    lines: list.items.map((row) => `${row.model} ${usd(row.input_cents_per_mtok)} ${usd(row.output_cents_per_mtok)}`).join('\n'),
  }
}
