import type { PointsBlock } from '../contract/accounts.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { pointsBlock } from '../points/summary.ts'
import type { RelayServices } from '../services.ts'

/** The points/package block of user info and login: the user's plan, caught up (relay/points/summary.ts). */
export function loadPointsBlock(services: RelayServices, userId: string, lang: ContentLanguage): Promise<PointsBlock> {
  return pointsBlock(services.db, userId, services.clock.now(), lang)
}
