/**
 * The configured reward rule (docs/architecture.md §6): one row of JSON, set by an operator with
 * `npm run admin -- referral rule set …` or on the console's `/admin/referral`; without it the
 * default of docs/product.md applies.
 */
import { z } from 'zod'
import type { Clock } from '../clock.ts'
import { defaultReferralRule, referralRuleSchema, type ReferralRule } from '../contract/referral.ts'
import type { Database } from '../db/open-database.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { inTransaction } from '../points/locks.ts'

const ruleRowId = 1

export async function readReferralRule(db: Database): Promise<ReferralRule> {
  const row = await db.selectFrom('referral_rule').select('rule').where('id', '=', ruleRowId).executeTakeFirst()
  // Parsed on every read: a row edited by hand into nonsense fails loudly instead of paying it.
  return row ? referralRuleSchema.parse(JSON.parse(row.rule)) : defaultReferralRule
}

/** Throws, naming each bad amount, when the rule breaks the schema's bounds. */
export async function writeReferralRule(db: Database, clock: Clock, rule: ReferralRule): Promise<void> {
  const parsed = referralRuleSchema.safeParse(rule)
  if (!parsed.success) throw new Error(`invalid referral rule:\n${z.prettifyError(parsed.error)}`)
  const value = JSON.stringify(parsed.data)
  const now = clock.now()
  await db
    .insertInto('referral_rule')
    .values({ id: ruleRowId, rule: value, update_timestamp: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ rule: value, update_timestamp: now }))
    .execute()
}

/** An operator's change of the rule (CLI or console), with its audit row in the same transaction. */
export async function setReferralRuleAsOperator(db: Database, operator: Operator, clock: Clock, rule: ReferralRule): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await readReferralRule(trx)
    await writeReferralRule(trx, clock, rule)
    await recordAudit(trx, operator, { action: 'referral_rule.set', target: { kind: 'referral_rule', ref: 'rule' }, before, after: rule }, clock.now())
  })
}
