/**
 * A trial: an operator starts a personal package for a user who holds none, without a redeem code
 * (docs/console.md, "Trial credit"). Points live in the account of a plan (docs/architecture.md §6),
 * so a grant to a user without one has nowhere to go and is refused (`points_need_package`); this
 * is the path that refusal names. The package starts exactly as a redemption starts it
 * (activation.ts): a subscription, its account and one `earned` row for the package's points,
 * marked `trial` in the user's history. A user with a package in force, or in a team, is refused:
 * a trial never replaces or cancels what someone holds.
 */
import { pointsReasons } from '../contract/points.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { RelayError } from '../http/relay-error.ts'
import { lockedPlan } from '../points/catch-up.ts'
import { inTransaction, lockUser } from '../points/locks.ts'
import { findMembership, isInForce } from '../points/plan.ts'
import type { RelayServices } from '../services.ts'
import { findUserByReference, type UserReference } from '../users/operator.ts'
import { startSubscription } from './activation.ts'
import { findPackageByCode } from './packages.ts'

export interface TrialGrant {
  username: string
  package_code: string
  points: number
  end_timestamp: number
}

export async function grantTrialAsOperator(
  services: Pick<RelayServices, 'db' | 'clock'>,
  operator: Operator,
  input: { user: UserReference; packageCode: string },
): Promise<TrialGrant> {
  return inTransaction(services.db, async (trx) => {
    const now = services.clock.now()
    const user = await findUserByReference(trx, input.user)
    await lockUser(trx, user.id)
    const pkg = await findPackageByCode(trx, input.packageCode)
    if (!pkg || pkg.kind !== 'personal') throw new RelayError('not_found', `no personal package ${input.packageCode}`)
    if (await findMembership(trx, user.id)) throw new RelayError('redeem_in_team', `${user.username} is in a team: the team's package is theirs`)
    const plan = await lockedPlan(trx, user.id, now)
    if (plan && isInForce(plan.subscription)) throw new RelayError('conflict', `${user.username} holds a package in force: grant points instead`)
    const subscription = await startSubscription(trx, { holder: { userId: user.id }, pkg, action: 'activated', reason: pointsReasons.trial, now })
    await recordAudit(
      trx,
      operator,
      { action: 'points.trial', target: { kind: 'user', ref: user.username }, after: { package: pkg.code, points: pkg.points_limit, end_timestamp: subscription.end_timestamp } },
      now,
    )
    return { username: user.username, package_code: pkg.code, points: pkg.points_limit, end_timestamp: subscription.end_timestamp }
  })
}
