import type { PointsBlock } from '../contract/accounts.ts'
import { pointsBlock } from '../points/summary.ts'
import type { RelayServices } from '../services.ts'

/** The points/package block of user info and login: the user's plan, caught up (relay/points/summary.ts). */
export function loadPointsBlock(services: RelayServices, userId: string): Promise<PointsBlock> {
  return pointsBlock(services.db, userId, services.clock.now())
}
