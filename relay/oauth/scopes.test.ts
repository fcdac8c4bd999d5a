import { accountEndpoints } from '../contract/accounts.ts'
import { Hono } from 'hono'
import { beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { codeFlowTokens, registerClient } from '../../tests/fixtures/oauth.ts'
import type { RequiredScope } from '../contract/endpoint.ts'
import { handleError } from '../http/error-handlers.ts'
import { mountRoutes } from '../http/mount-routes.ts'
import type { RelayEnv } from '../http/relay-env.ts'
import { defineRoute } from '../http/route.ts'
import { endpoint } from '../contract/endpoint.ts'
import { createLogger } from '../logger.ts'
import { createLogMailer } from '../mail/mailer.ts'
import { createServices } from '../create-services.ts'

/** One probe route per scope, on the real authentication over the suite's relay database. */
const probed: RequiredScope[] = ['profile', 'api', 'billing', 'session']

describeEachDatabase('oauth scope enforcement', (ctx) => {
  const probe = new Hono<RelayEnv>()
  beforeAll(() => {
    const logger = createLogger('error', () => {})
    const services = createServices({ db: ctx.relay.db, clock: ctx.clock, config: ctx.config, logger, mailer: createLogMailer(logger) })
    const routes = probed.map((scope) =>
      defineRoute(endpoint({
        method: 'get',
        path: `/api/probe/${scope}`,
        summary: `needs ${scope}`,
        tag: 'test',
        auth: 'user',
        scope,
        response: z.object({ ok: z.literal(true) }),
      }), async () => ({ ok: true as const })),
    )
    mountRoutes(probe, routes, services)
    probe.onError(handleError(logger))
  })

  /** Which probes the token gets through. */
  const allowed = async (token: string) => {
    const passed: RequiredScope[] = []
    for (const scope of probed) {
      const response = await probe.fetch(new Request(`http://relay.test/api/probe/${scope}`, { headers: { authorization: `Bearer ${token}` } }), {})
      if (response.status === 200) passed.push(scope)
      else expect(await response.json()).toMatchObject({ code: 40360, error: { details: { reason: 'insufficient_scope', required_scope: scope } } })
    }
    return passed
  }

  it('a portal login holds every scope; a client token only those granted, and never session', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    expect(await allowed(login.access_token)).toEqual(probed)
    expect(await allowed((await codeFlowTokens(ctx, login.access_token, client, 'profile')).access_token)).toEqual(['profile'])
    expect(await allowed((await codeFlowTokens(ctx, login.access_token, client, 'api billing')).access_token)).toEqual(['api', 'billing'])
    expect(await allowed((await codeFlowTokens(ctx, login.access_token, client, 'billing api profile')).access_token)).toEqual([
      'profile',
      'api',
      'billing',
    ])
  })

  it('a real call declared with the default scope refuses a token granted only api', async () => {
    const { login } = await ctx.signUp()
    const client = await registerClient(ctx)
    const apiOnly = await codeFlowTokens(ctx, login.access_token, client, 'api')
    const info = await ctx.refusal(accountEndpoints.info, { token: apiOnly.access_token })
    expect(info.status).toBe(403)
    expect(info.reason).toBe('insufficient_scope')
  })
})
