/**
 * Where notification events come from (docs/decisions/125-mail-and-announcements.md). A ticket answer and a sign-in queue
 * their mail where they happen (tickets/operator.ts, `noteSignIn`); a balance falling below the
 * user's threshold and a package about to end or ended are found by `scanForEvents`, which each
 * relay's mail sender runs once a minute (the ledger's hot path is left alone). Every event has
 * its dedupe key, so relays scanning at the same time queue each mail once.
 */
import { createHash } from 'node:crypto'
import { isIP } from 'node:net'
import type { ContentLanguage } from '../contract/languages.ts'
import type { Database } from '../db/open-database.ts'
import { currentPlan } from '../points/catch-up.ts'
import { findPackage, isInForce } from '../points/plan.ts'
import type { RelayServices } from '../services.ts'
import { subscriptionUsers } from '../subscriptions/events.ts'
import { packageNames } from '../subscriptions/packages.ts'
import { queueMail } from './queue.ts'
import { updateSettings } from './settings.ts'
import { dayMs } from '../contract/days.ts'

/** "Expiring" is mailed this long before the end. */
export const expiringWithinMs = 3 * dayMs
/** An end older than this when first seen (a relay that was down, a first start) is not mailed any more. */
const expiredLookbackMs = 7 * dayMs

export async function scanForEvents(services: RelayServices): Promise<void> {
  const now = services.clock.now()
  await scanBalances(services.db, now)
  await scanPackageEnds(services.db, now)
}

/** Mailed once per fall below the threshold: the flag `balance_below` is set by one relay only, with the mail. */
async function scanBalances(db: Database, now: number): Promise<void> {
  const watched = await db
    .selectFrom('notification_settings')
    .select(['user_id', 'balance_threshold', 'balance_below', 'balance_crossings'])
    .where('balance_threshold', 'is not', null)
    .where('balance_low', '=', 1)
    .execute()
  for (const watch of watched) {
    const plan = await currentPlan(db, watch.user_id, now)
    if (!plan || !isInForce(plan.subscription)) continue
    const balance = plan.account.balance
    const threshold = watch.balance_threshold!
    if (balance < threshold && watch.balance_below === 0) {
      await db.transaction().execute(async (trx) => {
        const crossing = watch.balance_crossings + 1
        const claimed = await trx
          .updateTable('notification_settings')
          .set({ balance_below: 1, balance_crossings: crossing })
          .where('user_id', '=', watch.user_id)
          .where('balance_below', '=', 0)
          .where('balance_crossings', '=', watch.balance_crossings)
          .executeTakeFirst()
        if (claimed.numUpdatedRows !== 1n) return
        await queueMail(trx, { userId: watch.user_id, event: 'balance_low', dedupeKey: `balance_low:${watch.user_id}:${crossing}`, payload: { balance, threshold }, now })
      })
    } else if (balance >= threshold && watch.balance_below === 1) {
      await db.updateTable('notification_settings').set({ balance_below: 0 }).where('user_id', '=', watch.user_id).execute()
    }
  }
}

/**
 * A subscription in force ending within three days, and one that reached its end (not one a new
 * package replaced early), to its holder or every member of its team.
 */
async function scanPackageEnds(db: Database, now: number): Promise<void> {
  const expiring = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', '=', 'normal')
    .where('end_timestamp', '>', now)
    .where('end_timestamp', '<=', now + expiringWithinMs)
    .execute()
  const expired = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', '!=', 'disabled')
    .where('end_timestamp', '<=', now)
    .where('end_timestamp', '>', now - expiredLookbackMs)
    .where((eb) => eb.or([eb('ended_timestamp', 'is', null), eb('ended_timestamp', '>=', eb.ref('end_timestamp'))]))
    .execute()
  const events = [
    ...expiring.map((subscription) => ({ subscription, event: 'package_expiring' as const })),
    ...expired.map((subscription) => ({ subscription, event: 'package_expired' as const })),
  ]
  if (events.length === 0) return
  // Most of these were queued at an earlier scan: skip them without a write.
  const queued = new Set(
    (await db.selectFrom('mail_queue').select('dedupe_key').where('event', 'in', ['package_expiring', 'package_expired']).where('create_timestamp', '>', now - expiredLookbackMs - expiringWithinMs).execute()).map((row) => row.dedupe_key),
  )
  for (const { subscription, event } of events) {
    const names = packageNames(await findPackage(db, subscription.package_id))
    for (const userId of await subscriptionUsers(db, subscription)) {
      const dedupeKey = `${event}:${subscription.id}:${userId}`
      if (queued.has(dedupeKey)) continue
      const payload = event === 'package_expiring' ? { package: names, ends_at: subscription.end_timestamp } : { package: names, ended_at: subscription.end_timestamp }
      await queueMail(db, { userId, event, dedupeKey, payload, now } as Parameters<typeof queueMail>[1])
    }
  }
}

/** The network part of an address: IPv4 /24, IPv6 /48; so a new address from the same provider's pool is no new device. */
export function addressNetwork(ip: string): string {
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1]
  const address = mapped ?? ip
  if (isIP(address) === 4) return `${address.split('.').slice(0, 3).join('.')}.0/24`
  if (isIP(address) === 6) {
    const [head = '', tail = ''] = address.toLowerCase().split('::')
    const headGroups = head ? head.split(':') : []
    const tailGroups = tail ? tail.split(':') : []
    const groups = address.includes('::') ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups
    return `${groups.slice(0, 3).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/48`
  }
  return address
}

/** A device is its browser's User-Agent string and its address's network. */
export function deviceHash(userAgent: string, ip: string): string {
  return createHash('sha256').update(`${userAgent}\n${addressNetwork(ip)}`).digest('hex')
}

/**
 * After a successful sign-in or registration: remembers the language for the user's mails and
 * the device, and queues a mail when the device is new and the user had signed in from another
 * one before (a first sign-in, or the first since this existed, only records it).
 */
export async function noteSignIn(
  { db }: Pick<RelayServices, 'db'>,
  signIn: { userId: string; userAgent: string; ip: string; lang: ContentLanguage; now: number },
): Promise<void> {
  const { userId, now } = signIn
  const userAgent = signIn.userAgent.slice(0, 300)
  await updateSettings(db, userId, { language: signIn.lang }, now)
  const hash = deviceHash(userAgent, signIn.ip)
  const known = await db.selectFrom('sign_in_devices').select('device_hash').where('user_id', '=', userId).execute()
  if (known.some((device) => device.device_hash === hash)) {
    await db.updateTable('sign_in_devices').set({ last_seen: now }).where('user_id', '=', userId).where('device_hash', '=', hash).execute()
    return
  }
  const inserted = await db
    .insertInto('sign_in_devices')
    .values({ user_id: userId, device_hash: hash, first_seen: now, last_seen: now })
    .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doNothing())
    .executeTakeFirst()
  if (known.length === 0 || Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return
  await queueMail(db, { userId, event: 'new_sign_in', dedupeKey: `new_sign_in:${userId}:${hash}`, payload: { at: now, ip: signIn.ip, user_agent: userAgent }, now })
}
