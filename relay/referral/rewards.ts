/**
 * Pays the referral reward of a paid redemption (docs/architecture.md §6, docs/decisions/052-referral.md). Runs as a
 * redeem hook inside the redemption's transaction, so a reward exists exactly when its
 * redemption does. A reward row is claimed before anything is paid: its unique redeem code
 * makes a code pay at most once, and a partial unique index allows one first-purchase reward
 * per invitee, whatever the concurrency.
 */
import type { Clock } from '../clock.ts'
import type { ReferralReward } from '../contract/referral.ts'
import { newId } from '../db/ids.ts'
import type { Database } from '../db/open-database.ts'
import type { ReferralRewardKind } from '../db/schema.ts'
import { grant } from '../points/ledger.ts'
import type { RedeemEvent, RedeemHook } from '../subscriptions/redeem-hooks.ts'
import { extendMembership } from './membership-days.ts'
import { readReferralRule } from './rule.ts'
import { isSelfReferral } from './self-referral.ts'

/** The ledger reason of reward grants (points history). */
export const referralPointsReason = 'referral'

export function referralRewardHook({ clock }: { clock: Clock }): RedeemHook {
  return async (trx, event) => {
    if (event.packagePrice <= 0) return
    const pair = await trx
      .selectFrom('users as invitee')
      .innerJoin('users as inviter', 'inviter.id', 'invitee.invited_by')
      .select(['inviter.id as inviterId', 'inviter.email as inviterEmail', 'invitee.email as inviteeEmail'])
      .where('invitee.id', '=', event.userId)
      .executeTakeFirst()
    // Addresses change after registration: an inviter and invitee of one mailbox are paid nothing.
    if (!pair || isSelfReferral(pair.inviterEmail, pair.inviteeEmail)) return
    const { inviterId } = pair
    const rule = await readReferralRule(trx)
    const now = clock.now()
    const claimed = await claimReward(trx, event, inviterId, now)
    if (!claimed) return
    const reward = rule[claimed.kind]
    // What was really paid is recorded: a side without a package in force gets no points, a side
    // without a personal subscription in force no days (the ledger and the plan decide, not us).
    const paid = {
      inviter_points: await payPoints(trx, clock, inviterId, reward.inviter_points),
      invitee_points: await payPoints(trx, clock, event.userId, reward.invitee_points),
      inviter_days: await extendMembership(trx, inviterId, reward.inviter_days, now),
      invitee_days: await extendMembership(trx, event.userId, reward.invitee_days, now),
    } satisfies ReferralReward
    await trx.updateTable('referral_rewards').set(paid).where('id', '=', claimed.id).execute()
  }
}

/**
 * Inserts the reward row of this redemption: `first` when it is the invitee's first paid
 * purchase, else `later`. Null when this redeem code was already rewarded.
 */
async function claimReward(
  trx: Database,
  event: RedeemEvent,
  inviterId: string,
  now: number,
): Promise<{ id: string; kind: ReferralRewardKind } | null> {
  const kinds: ReferralRewardKind[] = event.isFirstPaidPurchase ? ['first', 'later'] : ['later']
  for (const kind of kinds) {
    const id = newId()
    const inserted = await trx
      .insertInto('referral_rewards')
      .values({
        id,
        inviter_id: inviterId,
        invitee_id: event.userId,
        redeem_code_id: event.redeemCodeId,
        kind,
        inviter_points: 0,
        invitee_points: 0,
        inviter_days: 0,
        invitee_days: 0,
        create_timestamp: now,
      })
      // Either unique index may refuse: this code was rewarded, or a first reward exists already.
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (inserted) return { id, kind }
  }
  return null
}

async function payPoints(trx: Database, clock: Clock, userId: string, amount: number): Promise<number> {
  if (amount <= 0) return 0
  const entry = await grant({ db: trx, clock }, { userId, amount, reason: referralPointsReason })
  return entry ? amount : 0
}
