/**
 * Holds no relay will settle (docs/decisions/074-settlements-and-holds.md): a relay process that dies — killed, out of
 * memory, the machine gone — takes its calls in flight and its waiting settlements with it, and
 * their points would stay frozen for good. A hold still open `staleHoldMinutes` after it was taken
 * (far longer than any call streams) is given back in full, as a call that got no answer is: the
 * loss was ours, not the user's. Each relay looks when it starts and then every ten minutes;
 * several relays on one database may race for a hold, and the ledger's guarded settle lets one win.
 * When it starts, a relay also gives back at once every hold its previous run took (holds name
 * their relay's `RELAY_INSTANCE`; docs/decisions/074-settlements-and-holds.md): that run is over, so are its calls.
 * A hold whose call had started answering is not given back but settled, and its call recorded,
 * from what was written on it when the answer started (answered-holds.ts).
 */
import { RelayError } from '../http/relay-error.ts'
import { settle } from '../points/ledger.ts'
import { periodicSweep } from '../periodic-sweep.ts'
import type { RelayServices } from '../services.ts'
import { answeredSettlement } from './answered-holds.ts'

const sweepEveryMs = 10 * 60_000
/** Per sweep; the next sweep takes the rest. */
const batch = 500

/** Holds open longer than the limit: lost calls the next sweep gives back (the `relay_stale_holds` gauge). */
export async function countStaleHolds(services: Pick<RelayServices, 'db' | 'clock' | 'config'>): Promise<number> {
  const row = await services.db
    .selectFrom('points_holds')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('settled_timestamp', 'is', null)
    .where('create_timestamp', '<', services.clock.now() - services.config.staleHoldMinutes * 60_000)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * Ends the holds older than the limit and, with `startedAt`, those this relay's instance took
 * before it started: given back, or settled from their answer; returns how many.
 */
export async function releaseStaleHolds(services: RelayServices, { startedAt }: { startedAt?: number } = {}): Promise<number> {
  const { db, clock, logger, config } = services
  const before = clock.now() - config.staleHoldMinutes * 60_000
  const stale = await db
    .selectFrom('points_holds')
    .select(['id', 'account_id', 'user_id', 'amount', 'model', 'create_timestamp', 'answered'])
    .where('settled_timestamp', 'is', null)
    .where((eb) =>
      startedAt === undefined
        ? eb('create_timestamp', '<', before)
        : eb.or([eb('create_timestamp', '<', before), eb.and([eb('owner', '=', config.instance), eb('create_timestamp', '<', startedAt)])]),
    )
    .orderBy('id')
    .limit(batch)
    .execute()
  let released = 0
  const answered: Promise<void>[] = []
  for (const hold of stale) {
    if (hold.answered !== null) {
      // Through the settlement queue, as its relay would have: charged, recorded, its key's counters moved.
      answered.push(services.settlements.add(answeredSettlement({ ...hold, answered: hold.answered })))
      released += 1
      logger.warn('stale hold settled from its answer (its relay was lost mid-answer)', {
        hold: hold.id,
        user: hold.user_id,
        model: hold.model,
        taken: new Date(hold.create_timestamp).toISOString(),
      })
      continue
    }
    try {
      await settle(services, { holdId: hold.id, actual: 0 })
      released += 1
      logger.warn('stale hold given back (its relay was lost mid-call)', {
        hold: hold.id,
        user: hold.user_id,
        model: hold.model,
        points: hold.amount,
        taken: new Date(hold.create_timestamp).toISOString(),
      })
    } catch (error) {
      // Settled meanwhile by its call or another relay's sweep.
      if (!(error instanceof RelayError && error.reason === 'conflict')) throw error
    }
  }
  await Promise.all(answered)
  // Leases of calls the lost relay had in flight (call-leases.ts): counted by no limit any more, removed here.
  await db.deleteFrom('call_leases').where('create_timestamp', '<', before).execute()
  return released
}

/** Sweeps now and every ten minutes until stopped. */
export function sweepStaleHolds(services: RelayServices): { stop(): Promise<void> } {
  // Until it succeeds once, a run also ends what this instance's previous run left open.
  const startedAt = services.clock.now()
  let ownReleased = false
  return periodicSweep(services.logger, 'stale hold', sweepEveryMs, async () => {
    await releaseStaleHolds(services, ownReleased ? {} : { startedAt })
    ownReleased = true
  })
}

/**
 * For a relay that runs no sweeps (a worker but the first, relay/workers.ts): gives back the holds
 * its instance's previous run left open, tried every minute until it succeeds once.
 */
export function releaseOwnHolds(services: RelayServices): { stop(): Promise<void> } {
  const startedAt = services.clock.now()
  let released = false
  return periodicSweep(services.logger, 'own hold', 60_000, async () => {
    if (released) return
    await releaseStaleHolds(services, { startedAt })
    released = true
  })
}
