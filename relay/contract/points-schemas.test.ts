import { describe, expect, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import type { Subscription, subscriptionSchema } from './accounts.ts'
import {
  parseTeamCode,
  redeemCodeSchema,
  type CurrentPlan,
  type currentPlanSchema,
  type ModelCostList,
  type modelCostListSchema,
  type PackageInfo,
  type packageInfoSchema,
  type PointsHistory,
  type pointsHistorySchema,
  type PointsSummary,
  type pointsSummarySchema,
  type RedeemCodeCheck,
  type redeemCodeCheckSchema,
  type RedeemResult,
  type redeemResultSchema,
  type ResetTicketResult,
  type resetTicketResultSchema,
  type SubscriptionHistory,
  type subscriptionHistorySchema,
  type TeamCodeCheck,
  type teamCodeCheckSchema,
  type TeamInfo,
  type teamInfoSchema,
  type TeamJoinResult,
  type teamJoinResultSchema,
  type TeamPreview,
  type teamPreviewSchema,
  type WeeklyUsage,
  type weeklyUsageSchema,
} from './points.ts'

describe('points response schemas', () => {
  // Checked by `tsc --noEmit`: a schema that drifts from its interface fails the type check.
  it('infer exactly the contract interfaces', () => {
    expectTypeOf<z.infer<typeof subscriptionSchema>>().toEqualTypeOf<Subscription>()
    expectTypeOf<z.infer<typeof packageInfoSchema>>().toEqualTypeOf<PackageInfo>()
    expectTypeOf<z.infer<typeof pointsSummarySchema>>().toEqualTypeOf<PointsSummary>()
    expectTypeOf<z.infer<typeof pointsHistorySchema>>().toEqualTypeOf<PointsHistory>()
    expectTypeOf<z.infer<typeof weeklyUsageSchema>>().toEqualTypeOf<WeeklyUsage>()
    expectTypeOf<z.infer<typeof modelCostListSchema>>().toEqualTypeOf<ModelCostList>()
    expectTypeOf<z.infer<typeof resetTicketResultSchema>>().toEqualTypeOf<ResetTicketResult>()
    expectTypeOf<z.infer<typeof currentPlanSchema>>().toEqualTypeOf<CurrentPlan>()
    expectTypeOf<z.infer<typeof redeemCodeCheckSchema>>().toEqualTypeOf<RedeemCodeCheck>()
    expectTypeOf<z.infer<typeof redeemResultSchema>>().toEqualTypeOf<RedeemResult>()
    expectTypeOf<z.infer<typeof subscriptionHistorySchema>>().toEqualTypeOf<SubscriptionHistory>()
    expectTypeOf<z.infer<typeof teamCodeCheckSchema>>().toEqualTypeOf<TeamCodeCheck>()
    expectTypeOf<z.infer<typeof teamPreviewSchema>>().toEqualTypeOf<TeamPreview>()
    expectTypeOf<z.infer<typeof teamJoinResultSchema>>().toEqualTypeOf<TeamJoinResult>()
    expectTypeOf<z.infer<typeof teamInfoSchema>>().toEqualTypeOf<TeamInfo>()
  })
})

describe('parseTeamCode', () => {
  const encode = (text: string) => Buffer.from(text).toString('base64')

  it('reads base64 of <team_id>:<secret> in either alphabet, padded or not', () => {
    const text = '612345678901234567:Ab_-cd12Ef34gh56'
    const expected = { teamId: '612345678901234567', secret: 'Ab_-cd12Ef34gh56' }
    expect(parseTeamCode(encode(text))).toEqual(expected)
    expect(parseTeamCode(Buffer.from(text).toString('base64url'))).toEqual(expected)
    expect(parseTeamCode(` ${encode(text)} `)).toEqual(expected)
  })

  it('refuses what is not base64, or base64 of anything else', () => {
    expect(parseTeamCode('not base64!')).toBeNull()
    expect(parseTeamCode('abcde')).toBeNull()
    expect(parseTeamCode(encode('hello world'))).toBeNull()
    expect(parseTeamCode(encode('12x:abcdefgh12'))).toBeNull()
    expect(parseTeamCode(encode('123:short'))).toBeNull()
  })
})

describe('redeemCodeSchema', () => {
  it('ignores case, spaces and hyphens people paste along', () => {
    expect(redeemCodeSchema.parse(' abcd-efgh-2345 ')).toBe('ABCDEFGH2345')
    expect(redeemCodeSchema.safeParse('ab*cd').success).toBe(false)
    expect(redeemCodeSchema.safeParse('').success).toBe(false)
  })
})
