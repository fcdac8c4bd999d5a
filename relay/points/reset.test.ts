import { pointsEndpoints } from '../contract/points.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { afterEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { makeTeam, quickUser, redeemFresh, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { spend } from './ledger.ts'

const day = 86_400_000

describeEachDatabase(
  'points reset requests',
  (ctx) => {
    afterEach(() => expectLedgerInvariants(ctx.relay.db))

    const asking = (user: PointsUser, description = 'A script ran away with my points') => ({ token: user.token, body: { reason: 'misoperation' as const, description } })
    const ask = (user: PointsUser, description?: string) => ctx.call(pointsEndpoints.resetTicket, asking(user, description))
    const askRefused = (user: PointsUser) => ctx.refusal(pointsEndpoints.resetTicket, asking(user))
    const balance = async (user: PointsUser) => (await ctx.call(pointsEndpoints.points, { token: user.token })).balance
    const ticket = (user: PointsUser, id: string) => ctx.call(ticketEndpoints.detail, { params: { id }, token: user.token })

    async function spender() {
      const user = await quickUser(ctx)
      await redeemFresh(ctx, user)
      await spend(servicesOf(ctx), { userId: user.id, amount: 2000, model: 'claude-opus-4-1' })
      return user
    }

    it('approves at once when the package is in force and no reset was made within the cooldown', async () => {
      const user = await spender()
      const reply = await ask(user)
      expect(reply).toMatchObject({ status: 'completed', auto_approved: true, points_added: 2000, ticket_number: expect.stringMatching(/^T\d{10}$/) })
      expect(await balance(user)).toBe(2400)
      expect(await ticket(user, reply.ticket_id)).toMatchObject({
        type: 'pointsReset',
        status: 'completed',
        content: expect.stringContaining('A script ran away with my points'),
      })
      const rows = (await ctx.call(pointsEndpoints.history, { token: user.token })).items
      expect(rows[0]).toMatchObject({ type: 'earned', change: 2000, balance_after: 2400, reason: 'reset' })
    })

    it('lets a second request within the cooldown wait for an operator, refuses a third, and approves again after it', async () => {
      const user = await spender()
      expect((await ask(user)).auto_approved).toBe(true)
      ctx.clock.advance(6 * day)
      await spend(servicesOf(ctx), { userId: user.id, amount: 2000, model: null })
      const waiting = await ask(user)
      expect(waiting).toMatchObject({ status: 'pending', auto_approved: false })
      expect(await balance(user)).toBe(400)
      const third = await askRefused(user)
      expect(third.status).toBe(409)
      expect(third.reason).toBe('reset_already_pending')

      const approved = await runOperatorCli(ctx, 'points', 'approve-reset', waiting.ticket_number)
      expect(approved).toMatchObject({ code: 0 })
      expect(approved.stdout).toBe('reset approved: 2000 points added')
      expect(await balance(user)).toBe(2400)
      expect((await ticket(user, waiting.ticket_id)).status).toBe('completed')
      const twice = await runOperatorCli(ctx, 'points', 'approve-reset', waiting.ticket_number)
      expect(twice.code).toBe(1)

      // The operator's approval counts for the cooldown too: 10 days set here, from day 6.
      ctx.clock.advance(9 * day)
      await spend(servicesOf(ctx), { userId: user.id, amount: 100, model: null })
      expect((await ask(user)).auto_approved).toBe(false)
    })

    it('approves again once the cooldown has passed', async () => {
      const user = await spender()
      expect((await ask(user)).auto_approved).toBe(true)
      ctx.clock.advance(10 * day)
      await spend(servicesOf(ctx), { userId: user.id, amount: 100, model: null })
      expect(await ask(user)).toMatchObject({ status: 'completed', auto_approved: true })
    })

    it('leaves requests pending without a package in force, and for team members', async () => {
      const nobody = await quickUser(ctx)
      expect(await ask(nobody)).toMatchObject({ status: 'pending', auto_approved: false })
      const owner = await quickUser(ctx)
      await makeTeam(ctx, owner)
      await spend(servicesOf(ctx), { userId: owner.id, amount: 100, model: null })
      expect(await ask(owner)).toMatchObject({ status: 'pending', auto_approved: false, points_added: 0 })
    })

    it('refuses a request at or above the package limit, says so, and keeps the cooldown unspent', async () => {
      const user = await quickUser(ctx)
      await redeemFresh(ctx, user)
      // Above the limit, as after an operator's grant: a reset would add nothing.
      await ctx.call(pointsEndpoints.points, { token: user.token })
      await runOperatorCli(ctx, 'points', 'grant', '--user', user.username, '--amount', '10000', '--reason', 'goodwill')
      for (const points of [12_400, 2400]) {
        if (points === 2400) await spend(servicesOf(ctx), { userId: user.id, amount: 10_000, model: null })
        expect(await balance(user)).toBe(points)
        const refused = await askRefused(user)
        expect(refused.status).toBe(422)
        expect(refused.details).toMatchObject({ reason: 'reset_not_needed', balance: points, points_limit: 2400 })
      }
      const tickets = await ctx.relay.db.selectFrom('tickets').select('id').where('user_id', '=', user.id).execute()
      expect(tickets).toHaveLength(0)

      // One point under the limit: approved at once, saying what it added.
      await spend(servicesOf(ctx), { userId: user.id, amount: 1, model: null })
      expect(await ask(user)).toMatchObject({ status: 'completed', auto_approved: true, points_added: 1 })
      expect(await balance(user)).toBe(2400)
    })

    it('validates the reason and the description', async () => {
      const user = await quickUser(ctx)
      // Raw: a reason the call does not declare.
      const bad = await ctx.request('POST', pointsEndpoints.resetTicket.path, { token: user.token, body: { reason: 'bored', description: '' } })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body.error.details.fields).sort()).toEqual(['description', 'reason'])
    })
  },
  { pointsResetCooldownDays: 10 },
)
