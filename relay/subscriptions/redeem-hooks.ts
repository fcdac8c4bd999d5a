/**
 * Other areas react to a redemption inside its transaction: the referral programme pays its
 * reward there, so a reward exists exactly when the redemption does. Register a hook by pushing
 * it onto `services.redeemHooks` in createServices (relay/create-services.ts).
 *
 * A hook must use `trx` for every query: on SQLite the transaction holds the only connection, so
 * a query through `services.db` would wait for it forever. A hook that throws rolls the whole
 * redemption back (the code stays unused).
 */
import type { Database } from '../db/open-database.ts'

export interface RedeemEvent {
  userId: string
  packageId: string
  /** Minor units; 0 for a free package. */
  packagePrice: number
  redeemCodeId: string
  /** The package is paid and the user never redeemed a paid package before. */
  isFirstPaidPurchase: boolean
}

export type RedeemHook = (trx: Database, event: RedeemEvent) => Promise<void>
