/** Operator commands for model costs and points. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { usernameSchema } from '../contract/accounts.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { adjustPointsBody, pointsAdjustments } from '../contract/admin.ts'
import { trialBody } from '../contract/admin-users.ts'
import { grantTrialAsOperator } from '../subscriptions/trial.ts'
import { modelCostKinds } from '../contract/points.ts'
import { ticketBounds, ticketContentSchema } from '../contract/tickets.ts'
import { adjustPoints } from '../users/operator.ts'
import { maxPointsChange } from './ledger.ts'
import { findModelCost, listModelCosts } from './model-costs.ts'
import { removePriceAsOperator, setPriceAsOperator } from './price-operator.ts'
import { approvePointsReset, denyPointsReset } from './reset.ts'

const ticketArgument = { name: 'ticket', description: 'ticket number (e.g. T2501150001) or id' } as const
const points = z.coerce.number().int().min(0).max(10_000_000)
const dash = (n: number | null) => (n === null ? '-' : String(n))

export const pointsCommands: Command[] = [
  defineCommand({
    name: 'model-cost set',
    summary: "Create or replace a model's cost: fixed points per call, or rates per million tokens",
    options: {
      model: { description: "model id as clients send it (claude-sonnet-5-5), or a pattern with * (claude-sonnet-*; '*' alone: the default price)", schema: z.string() },
      kind: { description: 'fixed or variable', schema: z.enum(modelCostKinds) },
      'points-per-call': { description: 'fixed: points per call', schema: points.optional() },
      input: { description: 'variable: points per million input tokens', schema: points.optional() },
      output: { description: 'variable: points per million output tokens', schema: points.optional() },
      'cache-read': { description: 'variable: per million cache-read tokens (default: as input)', schema: points.optional() },
      'cache-write': { description: 'variable: per million 5-minute cache-write tokens (default: as input)', schema: points.optional() },
      'cache-write-1h': { description: 'variable: per million 1-hour cache-write tokens (default: twice input)', schema: points.optional() },
      'web-search': { description: 'variable: points per hosted web search (default: 1, $10 per 1,000)', schema: points.optional() },
      'long-context-above': { description: 'variable: prompt tokens (input + cache) above which the call is charged the long-context percentages', schema: points.optional() },
      'long-context-input-percent': { description: 'variable: input-side rates above the threshold, in percent (e.g. 200)', schema: points.optional() },
      'long-context-output-percent': { description: 'variable: output rate above the threshold, in percent (e.g. 150)', schema: points.optional() },
      description: { description: 'shown in the cost table', schema: z.string().optional() },
    },
    async run(values, { services, print }) {
      const cost = await setPriceAsOperator(services.db, cliOperator(), {
        model: values.model,
        kind: values.kind,
        points_per_call: values['points-per-call'] ?? null,
        input_points_per_mtok: values.input ?? null,
        output_points_per_mtok: values.output ?? null,
        cache_read_points_per_mtok: values['cache-read'] ?? null,
        cache_write_points_per_mtok: values['cache-write'] ?? null,
        cache_write_1h_points_per_mtok: values['cache-write-1h'] ?? null,
        web_search_points: values['web-search'] ?? null,
        long_context_threshold: values['long-context-above'] ?? null,
        long_context_input_percent: values['long-context-input-percent'] ?? (values['long-context-above'] ? 100 : null),
        long_context_output_percent: values['long-context-output-percent'] ?? (values['long-context-above'] ? 100 : null),
        description: values.description ?? null,
      }, services.clock.now())
      print(`${cost.model}: ${cost.kind}`)
    },
  }),

  defineCommand({
    name: 'model-cost list',
    summary: 'Every model cost (points per call, or per million tokens: input, output, cache read, 5-minute and 1-hour cache write; points per web search)',
    options: {},
    async run(_values, { services, print }) {
      print(`${'model'.padEnd(32)} ${'kind'.padEnd(9)} points per call, or per million tokens: input / output / cache read / cache write 5m / 1h, then per web search`)
      for (const c of await listModelCosts(services.db)) {
        const rates =
          c.kind === 'fixed'
            ? `${c.points_per_call} per call`
            : `${[c.input_points_per_mtok, c.output_points_per_mtok, c.cache_read_points_per_mtok, c.cache_write_points_per_mtok, c.cache_write_1h_points_per_mtok ?? null].map(dash).join(' / ')}, ${dash(c.web_search_points ?? null)} per search`
        print(`${c.model.padEnd(32)} ${c.kind.padEnd(9)} ${rates}`)
      }
    },
  }),

  defineCommand({
    name: 'model-cost remove',
    summary: 'Remove a model’s cost: running relays refuse the model within seconds',
    options: { model: { description: 'model id as model-cost list prints it', schema: z.string().trim().min(1) } },
    async run({ model }, { services, print }) {
      const known = await findModelCost(services.db, model)
      if (!known) throw new Error(`no cost for ${model} (see model-cost list)`)
      await removePriceAsOperator(services.db, cliOperator(), model, services.clock.now())
      print(`removed ${model}`)
    },
  }),

  ...pointsAdjustments.map((direction) =>
    defineCommand({
      name: `points ${direction}`,
      summary:
        direction === 'grant'
          ? "Add points to a user's package in force (their team's pool for a member)"
          : "Take points from a user's package in force (never below zero)",
      options: {
        user: { description: 'username', schema: usernameSchema },
        amount: { description: `points, 1–${maxPointsChange}`, schema: adjustPointsBody.shape.amount },
        reason: { description: 'shown in the user’s points history', schema: adjustPointsBody.shape.reason },
      },
      async run({ user, amount, reason }, { services, print }) {
        const result = await adjustPoints(services, cliOperator(), { user: { username: user }, direction, amount, reason })
        print(`${direction === 'grant' ? 'granted' : 'deducted'} ${amount} ${direction === 'grant' ? 'to' : 'from'} ${result.username}; balance ${result.balance}`)
      },
    }),
  ),

  defineCommand({
    name: 'points trial',
    summary: 'Start a personal package for a user who holds none (a grant needs a package to credit), without a redeem code',
    options: {
      user: { description: 'username', schema: usernameSchema },
      package: { description: 'code of a personal package (package list)', schema: trialBody.shape.package_code },
    },
    async run({ user, package: packageCode }, { services, print }) {
      const trial = await grantTrialAsOperator(services, cliOperator(), { user: { username: user }, packageCode })
      print(`${trial.username}: ${trial.package_code} started as a trial, ${trial.points} points, until ${new Date(trial.end_timestamp).toISOString()}`)
    },
  }),

  defineCommand({
    name: 'points approve-reset',
    summary: "Approve a waiting points-reset request: top the user's balance up to the limit, complete the ticket",
    argument: ticketArgument,
    options: {},
    async run({ ticket }, { services, print }) {
      const { amount } = await approvePointsReset(services.db, cliOperator(), { ticket, now: services.clock.now() })
      print(`reset approved: ${amount} points added`)
    },
  }),

  defineCommand({
    name: 'points deny-reset',
    summary: 'Deny a waiting points-reset request: the ticket is rejected, optionally with an answer to the user',
    argument: ticketArgument,
    options: { message: { description: `the answer, 1–${ticketBounds.content.max} characters (optional)`, schema: ticketContentSchema.optional() } },
    async run({ ticket, message }, { services, print }) {
      await denyPointsReset(services.db, cliOperator(), { ticket, content: message, now: services.clock.now() })
      print('reset denied')
    },
  }),
]
