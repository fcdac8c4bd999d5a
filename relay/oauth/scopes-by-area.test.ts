/**
 * Every area's calls demand the scope they belong to (a token granted a subset of scopes
 * cannot use the others): account info needs `profile`; points, packages, teams and referral need
 * `billing`; tickets, keys, profile and password changes only a portal session may make.
 */
import { accountEndpoints } from '../contract/accounts.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens, registerClient } from '../../tests/fixtures/oauth.ts'

const calls: Array<{ method: string; path: string; body?: unknown; needs: 'profile' | 'billing' | 'session' }> = [
  { method: 'GET', path: accountEndpoints.info.path, needs: 'profile' },
  { method: 'GET', path: '/api/user/resources', needs: 'profile' },
  { method: 'GET', path: '/api/user/points', needs: 'billing' },
  { method: 'GET', path: '/api/user/points/history', needs: 'billing' },
  { method: 'GET', path: '/api/user/subscriptions/history', needs: 'billing' },
  { method: 'GET', path: '/api/user/team/info', needs: 'billing' },
  { method: 'GET', path: '/api/user/referral/stats', needs: 'billing' },
  { method: 'POST', path: '/api/user/redeem-code', body: { redeem_code: 'ABCD-EFGH-JKLM-NPQR' }, needs: 'billing' },
  { method: 'GET', path: '/api/user/tickets', needs: 'session' },
  { method: 'GET', path: '/api/user/api-keys', needs: 'session' },
  { method: 'PUT', path: accountEndpoints.profile.path, body: { name: 'x' }, needs: 'session' },
  { method: 'PUT', path: accountEndpoints.password.path, body: { old_password: 'a', new_password: 'longer password' }, needs: 'session' },
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
        const reply = await ctx.request(call.method, call.path, { token: tokens.access_token, body: call.body })
        const allowed = call.needs !== 'session' && (grant === 'all' || grant === call.needs)
        const label = `${call.method} ${call.path} with ${grant}`
        if (allowed) expect(reply.body?.error?.details?.reason, label).not.toBe('insufficient_scope')
        else expect([reply.status, reply.body?.error?.details?.reason], label).toEqual([403, 'insufficient_scope'])
      }
      // The portal's own session may do everything.
      const own = await ctx.request(call.method, call.path, { token: login.access_token, body: call.body })
      expect(own.body?.error?.details?.reason, `${call.path} with the session`).not.toBe('insufficient_scope')
    }
  })
})
