/** Operator commands for the referral reward rule (docs/architecture.md §6: the rule is configuration). */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import type { ReferralReward, ReferralRule } from '../contract/referral.ts'
import { cliOperator } from '../audit/audit-log.ts'
import { readReferralRule, setReferralRuleAsOperator } from './rule.ts'

const purchases = ['first', 'later'] as const
const amounts = [
  ['inviter-points', 'inviter_points'],
  ['invitee-points', 'invitee_points'],
  ['inviter-days', 'inviter_days'],
  ['invitee-days', 'invitee_days'],
] as const satisfies ReadonlyArray<readonly [string, keyof ReferralReward]>

/** `--first-inviter-points 10000` … `--later-invitee-days 0`: each optional, the rest kept. */
const setOptions = Object.fromEntries(
  purchases.flatMap((purchase) =>
    amounts.map(([option, field]) => [
      `${purchase}-${option}`,
      {
        description: `${purchase === 'first' ? 'first paid purchase' : 'each later paid purchase'}: ${field.replace('_', ' ')}`,
        // Range checks are the rule schema's, applied when the rule is written.
        schema: z.coerce.number().int().optional(),
      },
    ]),
  ),
)

export const referralCommands: Command[] = [
  defineCommand({
    name: 'referral rule show',
    summary: 'The reward rule in force (JSON)',
    options: {},
    async run(_values, { services, print }) {
      print(JSON.stringify(await readReferralRule(services.db), null, 2))
    },
  }),

  defineCommand({
    name: 'referral rule set',
    summary: 'Change amounts of the reward rule; amounts not given stay as they are. Prints the new rule',
    options: setOptions,
    async run(values, { services, print }) {
      const current = await readReferralRule(services.db)
      const next: ReferralRule = {
        first: { ...current.first },
        later: { ...current.later },
      }
      for (const purchase of purchases) {
        for (const [option, field] of amounts) {
          const value = (values as Record<string, number | undefined>)[`${purchase}-${option}`]
          if (value !== undefined) next[purchase][field] = value
        }
      }
      await setReferralRuleAsOperator(services.db, cliOperator(), services.clock, next)
      print(JSON.stringify(next, null, 2))
    },
  }),
]
