/**
 * What an inviter sees of the programme. An invitation is `users.invited_by` (bound at
 * registration); it counts as rewarded once a reward row exists for the invitee, which a paid
 * redemption writes (rewards.ts). Nothing here reads another user's data beyond the caller's own
 * invitees, whose usernames are masked.
 */
import type { ReferralRecord, ReferralRecords, ReferralStats } from '../contract/referral.ts'
import { pageOffset, type PageQuery } from '../contract/paging.ts'
import type { Database } from '../db/open-database.ts'
import type { UserRow } from '../users/users.ts'
import { readReferralRule } from './rule.ts'

export async function referralStats(db: Database, user: UserRow): Promise<ReferralStats> {
  const [invites, rewards, rule] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('invited_by', '=', user.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('referral_rewards')
      .select((eb) => [
        eb.fn.count<number>('invitee_id').distinct().as('valid'),
        eb.fn.coalesce(eb.fn.sum<number>('inviter_days'), eb.lit(0)).as('days'),
        eb.fn.coalesce(eb.fn.sum<number>('inviter_points'), eb.lit(0)).as('points'),
      ])
      .where('inviter_id', '=', user.id)
      .executeTakeFirstOrThrow(),
    readReferralRule(db),
  ])
  return {
    total_invites: Number(invites.total),
    valid_invites: Number(rewards.valid),
    cumulative_reward_days: Number(rewards.days),
    cumulative_reward_points: Number(rewards.points),
    invite_code: user.invite_code,
    rule,
  }
}

/** Newest invitee first, with what the caller earned from each. */
export async function referralRecords(db: Database, inviterId: string, page: PageQuery): Promise<ReferralRecords> {
  const earned = db
    .selectFrom('referral_rewards')
    .select((eb) => [
      'invitee_id',
      eb.fn.sum<number>('inviter_points').as('points'),
      eb.fn.sum<number>('inviter_days').as('days'),
    ])
    .where('inviter_id', '=', inviterId)
    .groupBy('invitee_id')
    .as('earned')
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .leftJoin(earned, 'earned.invitee_id', 'users.id')
      .select(['users.id', 'users.username', 'users.create_timestamp', 'earned.invitee_id', 'earned.points', 'earned.days'])
      .where('users.invited_by', '=', inviterId)
      .orderBy('users.create_timestamp', 'desc')
      .orderBy('users.id', 'desc')
      .limit(page.pageSize)
      .offset(pageOffset(page))
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('invited_by', '=', inviterId)
      .executeTakeFirstOrThrow(),
  ])
  const items = rows.map(
    (row): ReferralRecord => ({
      id: row.id,
      username: maskUsername(row.username),
      create_timestamp: row.create_timestamp,
      reward_days: Number(row.days ?? 0),
      reward_points: Number(row.points ?? 0),
      status: row.invitee_id === null ? 'pending' : 'rewarded',
    }),
  )
  return { items, total: Number(count.total), page: page.page, pageSize: page.pageSize }
}

/** `alice_w` → `al***_w`; short names keep one character at each end. */
export function maskUsername(username: string): string {
  const keep = username.length > 4 ? 2 : 1
  return `${username.slice(0, keep)}***${username.slice(-keep)}`
}
