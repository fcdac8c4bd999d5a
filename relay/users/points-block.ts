import type { PointsBlock } from '../contract/accounts.ts'
import type { RelayServices } from '../services.ts'

/**
 * The points/package block of user info and login. Until the points area exists every user
 * has no package: the spec's defaults (hour_points 100, validity_days 30), status `none`,
 * zero balances. The points area replaces this body with a read of the user's account.
 */
export async function loadPointsBlock(_services: RelayServices, _userId: string): Promise<PointsBlock> {
  return {
    total_points: 0,
    remaining_points: 0,
    used_points: 0,
    total_used_points: 0,
    hour_points: 100,
    package_id: null,
    status: 'none',
    start_timestamp: null,
    end_timestamp: null,
    package_name: null,
    package_code: null,
    validity_days: 30,
    description: null,
    points_limit: 0,
    frozen_points: 0,
    last_refill_timestamp: null,
    next_refill_timestamp: null,
    remaining_days: 0,
    package_kind: null,
    team_id: null,
  }
}
