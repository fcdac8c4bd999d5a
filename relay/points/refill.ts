/**
 * Lazy hourly refill (docs/architecture.md §6): no scheduler; whenever an account is read or spent from, each
 * whole hour since its last refill adds the package's hour_points, capped at the points limit.
 * Hours are counted only until the subscription's end.
 */
import { hourMs } from '../contract/days.ts'

export interface RefillState {
  balance: number
  frozen: number
  last_refill_timestamp: number
}

export interface RefillTerms {
  hour_points: number
  points_limit: number
  end_timestamp: number
}

export interface Refill {
  /** Whole hours elapsed; 0 means nothing is due. */
  hours: number
  /** Points to add: frozen points count against the limit, so settling never lifts a balance past it. */
  points: number
  /** The new last refill time: advanced by whole hours, so the hourly phase never drifts. */
  lastRefill: number
}

export function refillDue(account: RefillState, terms: RefillTerms, now: number): Refill {
  const horizon = Math.min(now, terms.end_timestamp)
  const hours = Math.max(0, Math.floor((horizon - account.last_refill_timestamp) / hourMs))
  const room = Math.max(0, terms.points_limit - account.balance - account.frozen)
  // Capped before multiplying out, so 10^6 idle hours cannot overflow anything.
  const points = Math.min(room, Math.min(hours, Math.ceil(room / Math.max(1, terms.hour_points))) * terms.hour_points)
  return { hours, points, lastRefill: account.last_refill_timestamp + hours * hourMs }
}

/** When the next hour's points arrive, or null once the subscription ends first. */
export function nextRefillAt(lastRefill: number, endTimestamp: number): number | null {
  const next = lastRefill + hourMs
  return next <= endTimestamp ? next : null
}
