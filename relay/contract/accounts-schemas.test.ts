import { describe, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import type { Availability, LoginData, PointsBlock, TokenPair, User, UserInfo } from './accounts.ts'
import type {
  availabilitySchema,
  loginDataSchema,
  pointsBlockSchema,
  tokenPairSchema,
  userInfoSchema,
  userSchema,
} from './accounts.ts'

// Checked by `tsc --noEmit`: a schema that drifts from its interface fails the type check.
describe('account response schemas', () => {
  it('infer exactly the contract interfaces', () => {
    expectTypeOf<z.infer<typeof userSchema>>().toEqualTypeOf<User>()
    expectTypeOf<z.infer<typeof pointsBlockSchema>>().toEqualTypeOf<PointsBlock>()
    expectTypeOf<z.infer<typeof tokenPairSchema>>().toEqualTypeOf<TokenPair>()
    expectTypeOf<z.infer<typeof loginDataSchema>>().toEqualTypeOf<LoginData>()
    expectTypeOf<z.infer<typeof availabilitySchema>>().toEqualTypeOf<Availability>()
    expectTypeOf<z.infer<typeof userInfoSchema>['subscriptions'][number]['used_points']>().toEqualTypeOf<
      UserInfo['subscriptions'][number]['used_points']
    >()
  })
})
