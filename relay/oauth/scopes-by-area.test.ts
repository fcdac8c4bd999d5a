/**
 * Every area's calls demand the scope they belong to (a token granted a subset of scopes
 * cannot use the others): account info needs `profile`; points, packages, teams and referral need
 * `billing`; tickets, keys, profile and password changes only a portal session may make.
 */
import { accountEndpoints } from '../contract/accounts.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import type { Endpoint } from '../contract/endpoint.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { referralEndpoints } from '../contract/referral.ts'
import { resourceEndpoints } from '../contract/resources.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { expect, it } from 'vitest'
import type { CallInput } from '../../app/utils/relay-client.server.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens, registerClient } from '../../tests/fixtures/oauth.ts'
import type { TestRelay } from '../../tests/fixtures/relay-harness.ts'

/** A call made with whichever token the test holds, and the scope it needs. */
function declared<E extends Endpoint>(endpoint: E, needs: 'profile' | 'billing' | 'session', input = {} as CallInput<E>) {
  return {
    label: `${endpoint.method.toUpperCase()} ${endpoint.path}`,
    needs,
    outcome: (ctx: TestRelay, token: string) => ctx.outcome(endpoint, { ...input, token }),
  }
}

const calls = [
  declared(accountEndpoints.info, 'profile'),
  declared(resourceEndpoints.list, 'profile'),
  declared(pointsEndpoints.points, 'billing'),
  declared(pointsEndpoints.history, 'billing'),
  declared(subscriptionEndpoints.history, 'billing'),
  declared(teamEndpoints.info, 'billing'),
  declared(referralEndpoints.stats, 'billing'),
  declared(subscriptionEndpoints.redeemCode, 'billing', { body: { redeem_code: 'ABCD-EFGH-JKLM-NPQR' } }),
  declared(ticketEndpoints.list, 'session'),
  declared(apiKeyEndpoints.list, 'session'),
  declared(accountEndpoints.profile, 'session', { body: { name: 'x' } }),
  declared(accountEndpoints.password, 'session', { body: { old_password: 'a', new_password: 'longer password' } }),
]

describeEachDatabase('scopes by area', (ctx) => {
  it('lets a client token through exactly the calls its scopes cover', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const granted = {
      profile: await codeFlowTokens(ctx, login.access_token, client, 'profile'),
      billing: await codeFlowTokens(ctx, login.access_token, client, 'billing'),
      all: await codeFlowTokens(ctx, login.access_token, client, 'profile api billing'),
    }
    for (const call of calls) {
      for (const [grant, tokens] of Object.entries(granted)) {
        const reply = await call.outcome(ctx, tokens.access_token)
        const allowed = call.needs !== 'session' && (grant === 'all' || grant === call.needs)
        const label = `${call.label} with ${grant}`
        if (allowed) expect(reply.error?.reason, label).not.toBe('insufficient_scope')
        else expect([reply.status, reply.error?.reason], label).toEqual([403, 'insufficient_scope'])
      }
      // The portal's own session may do everything.
      const own = await call.outcome(ctx, login.access_token)
      expect(own.error?.reason, `${call.label} with the session`).not.toBe('insufficient_scope')
    }
  })
})
