/**
 * Redeem codes (docs/product.md, docs/architecture.md §6): operators print them for a personal package; a user
 * validates one (nothing changes), then redeems it: the package in force ends at once (its points
 * expire) and the new one starts. A top-up package's code instead adds its points to the personal
 * plan in force (docs/decisions/023-packages-teams-codes-resets.md). A code is single-use under any concurrency: claiming it is one
 * guarded UPDATE inside the redemption's transaction.
 */
import { createHash, randomInt } from 'node:crypto'
import type { Selectable } from 'kysely'
import { redeemBatchMax } from '../contract/admin.ts'
import { defaultContentLanguage, type ContentLanguage } from '../contract/languages.ts'
import { pointsReasons } from '../contract/points.ts'
import { type RedeemCodeCheck, type RedeemResult } from '../contract/subscriptions.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { RedeemCodesTable } from '../db/schema.ts'
import { codeGuessLimits, type CodeGuesser } from '../http/code-guessing.ts'
import { RelayError } from '../http/relay-error.ts'
import { catchUpLocked, currentPlan } from '../points/catch-up.ts'
import { appendEntry } from '../points/entries.ts'
import { endSubscription } from '../points/expiry.ts'
import { inTransaction, lockUser } from '../points/locks.ts'
import { findMembership, findPackage, findPersonalPlan, isInForce, type Plan } from '../points/plan.ts'
import { dayMs } from '../contract/days.ts'
import type { RelayServices } from '../services.ts'
import { startSubscription } from './activation.ts'
import { currentPlanOf } from './current-plan.ts'
import { findPackageByCode, packageName, toPackageInfo, type PackageRow } from './packages.ts'

/** Digits and capitals without I, L, O, U (as invite codes): 16 symbols are 80 bits. */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const codeLength = 16

const enforceAttempts = codeGuessLimits('redeem-code')

/** Creates `count` codes for a personal package; returns them in clear, the only time they exist so. */
export async function createRedeemCodes(
  db: Database,
  now: number,
  input: { packageCode: string; count: number; expiresDays?: number },
): Promise<{ pkg: PackageRow; batchId: string; codes: string[] }> {
  const pkg = await findPackageByCode(db, input.packageCode)
  if (!pkg) throw new RelayError('not_found', `no package with code ${input.packageCode}`)
  if (pkg.kind === 'team') throw new RelayError('business_rule', `${pkg.code} is a team package: teams are made with "team create"`)
  if (pkg.listing !== 'listed') throw new RelayError('business_rule', `${pkg.code} is ${pkg.listing}: list it again to print codes for it`)
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > redeemBatchMax) {
    throw new RelayError('business_rule', `count must be 1–${redeemBatchMax}`)
  }
  const expires = input.expiresDays === undefined ? null : now + input.expiresDays * dayMs
  const codes = Array.from({ length: input.count }, () => Array.from({ length: codeLength }, () => alphabet[randomInt(alphabet.length)]).join(''))
  const batchId = newId()
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < codes.length; i += 500) {
      await trx
        .insertInto('redeem_codes')
        .values(
          codes.slice(i, i + 500).map((code) => ({
            id: newId(),
            code_hash: hashCode(code),
            package_id: pkg.id,
            expires_timestamp: expires,
            used_by: null,
            used_timestamp: null,
            subscription_id: null,
            batch_id: batchId,
            revoked_timestamp: null,
            create_timestamp: now,
          })),
        )
        .execute()
    }
  })
  return { pkg, batchId, codes: codes.map((code) => code.match(/.{4}/g)!.join('-')) }
}

/** `redeem_code` as the contract's schema left it (upper case, no separators). */
export async function checkRedeemCode(services: RelayServices, guesser: CodeGuesser, code: string, lang: ContentLanguage): Promise<RedeemCodeCheck> {
  const { db, clock, limiter } = services
  const { userId } = guesser
  await enforceAttempts(limiter, guesser)
  const now = clock.now()
  if (await findMembership(db, userId)) throw new RelayError('redeem_in_team')
  const row = await findUsableCode(db, code, now)
  const [pkg, plan] = await Promise.all([findPackage(db, row.package_id), currentPlan(db, userId, now)])
  const current = plan && isInForce(plan.subscription) ? currentPlanOf(plan, now, lang) : null
  const topUp = pkg.kind === 'topup'
  if (topUp && !current) throw new RelayError('topup_needs_package')
  return {
    package: toPackageInfo(pkg, lang),
    code_expires_timestamp: row.expires_timestamp,
    replaces_active: !topUp && current !== null,
    current,
  }
}

/** `lang`: of the package's name in the answer (callers that ignore it leave it out). */
export async function redeemCode(services: RelayServices, guesser: CodeGuesser, code: string, lang: ContentLanguage = defaultContentLanguage): Promise<RedeemResult> {
  const { db, clock, limiter, redeemHooks } = services
  const { userId } = guesser
  await enforceAttempts(limiter, guesser)
  return inTransaction(db, async (trx) => {
    const now = clock.now()
    await lockUser(trx, userId)
    if (await findMembership(trx, userId)) throw new RelayError('redeem_in_team')
    const row = await findUsableCode(trx, code, now)
    const claimed = await trx
      .updateTable('redeem_codes')
      .set({ used_by: userId, used_timestamp: now })
      .where('id', '=', row.id)
      .where('used_by', 'is', null)
      // A revocation that committed after the read above still wins.
      .where('revoked_timestamp', 'is', null)
      .executeTakeFirst()
    if (claimed.numUpdatedRows === 0n) throw new RelayError('redeem_code_invalid')
    const pkg = await findPackage(trx, row.package_id)

    let subscription: Pick<Plan['subscription'], 'id' | 'start_timestamp' | 'end_timestamp'>
    let previous: Plan | null = null
    if (pkg.kind === 'topup') {
      subscription = await addTopUp(trx, { userId, pkg, now })
    } else {
      previous = await endPlanInForce(trx, await findPersonalPlan(trx, userId), now)
      subscription = await startSubscription(trx, {
        holder: { userId },
        pkg,
        action: !previous ? 'activated' : previous.pkg.id === pkg.id ? 'renewed' : 'upgraded',
        now,
      })
    }
    await trx.updateTable('redeem_codes').set({ subscription_id: subscription.id }).where('id', '=', row.id).execute()

    const event = {
      userId,
      packageId: pkg.id,
      packagePrice: pkg.price,
      redeemCodeId: row.id,
      isFirstPaidPurchase: pkg.price > 0 && !(await hasEarlierPaidRedemption(trx, userId, row.id)),
    }
    for (const hook of redeemHooks) await hook(trx, event)

    return {
      package_name: packageName(pkg, lang),
      package_code: pkg.code,
      package_kind: pkg.kind,
      points_gained: pkg.points_limit,
      subscription_id: subscription.id,
      start_timestamp: subscription.start_timestamp,
      end_timestamp: subscription.end_timestamp,
      replaced_previous: previous !== null,
    }
  })
}

/**
 * A top-up's points go to the personal plan in force (brought up to date first: refills due, or its
 * end), as an `earned` row: they may lift the balance past the package's limit, which only pauses
 * the hourly refill, and they expire with the plan. Returns the plan's subscription.
 */
async function addTopUp(trx: Database, { userId, pkg, now }: { userId: string; pkg: PackageRow; now: number }): Promise<Plan['subscription']> {
  const found = await findPersonalPlan(trx, userId)
  const plan = found && (await catchUpLocked(trx, found, now))
  if (!plan || !isInForce(plan.subscription)) throw new RelayError('topup_needs_package')
  await appendEntry(trx, { accountId: plan.account.id, userId, type: 'earned', change: pkg.points_limit, reason: pointsReasons.topup, now })
  return plan.subscription
}

/**
 * Ends `plan` at once if it is in force (its points expire, its history says cancelled); returns
 * it as it was, or null when nothing was in force. Also used by the team join.
 */
export async function endPlanInForce(trx: Database, plan: Plan | null, now: number): Promise<Plan | null> {
  if (!plan) return null
  const current = await catchUpLocked(trx, plan, now)
  if (!isInForce(current.subscription)) return null
  await endSubscription(trx, current, { at: now, action: 'cancelled', reason: pointsReasons.replaced })
  return current
}

async function findUsableCode(db: Database, code: string, now: number): Promise<Selectable<RedeemCodesTable>> {
  const row = await db.selectFrom('redeem_codes').selectAll().where('code_hash', '=', hashCode(code)).executeTakeFirst()
  if (!row || row.used_by !== null || row.revoked_timestamp !== null || (row.expires_timestamp !== null && row.expires_timestamp <= now)) {
    throw new RelayError('redeem_code_invalid')
  }
  return row
}

async function hasEarlierPaidRedemption(trx: Database, userId: string, exceptCodeId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('redeem_codes')
    .innerJoin('packages', 'packages.id', 'redeem_codes.package_id')
    .select('redeem_codes.id')
    .where('redeem_codes.used_by', '=', userId)
    .where('redeem_codes.id', '<>', exceptCodeId)
    .where('packages.price', '>', 0)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Lookup is by hash, so the comparison never runs over the secret itself (docs/architecture.md §8). O, I and
 * L are read as the digits people meant.
 */
function hashCode(code: string): string {
  const canonical = code.replace(/O/g, '0').replace(/[IL]/g, '1')
  return createHash('sha256').update(canonical).digest('hex')
}

