import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import { accountEndpoints } from '../contract/accounts.ts'
import type { PartInput } from '../contract/endpoint.ts'
import { notificationEndpoints } from '../contract/notifications.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { grant, spend } from '../points/ledger.ts'
import { createTestDatabase, databaseKinds, describeEachDatabase, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { expectLedgerInvariants } from '../../tests/fixtures/ledger.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser, redeemFresh, servicesOf, type PointsUser } from '../../tests/fixtures/points.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/fixtures/smtp-sink.ts'
import { retryDelayMs } from './delivery-queue.ts'
import { scanForEvents } from './events.ts'
import { sendDueMails } from './queue.ts'

const minute = 60_000
const day = 86_400_000
type SettingsBody = PartInput<typeof notificationEndpoints.saveSettings, 'body'>
const emailOf = (user: PointsUser) => `${user.username.toLowerCase()}@example.com`

/** Waits for the relay's sender (polling every 50 ms of real time) to have delivered `count` mails to `to`. */
async function delivered(smtp: SmtpSink, to: string, count: number) {
  await vi.waitFor(() => expect(smtp.messages(to)).toHaveLength(count), { timeout: 8000, interval: 50 })
  return smtp.messages(to)
}

/**
 * A sender's round (the scan for events, then the due mails), run now and awaited, and then no
 * other round mid-send: what is unsent afterwards was not due, so no waiting is needed to show
 * that a mail did not go out.
 */
async function drainMail(relay: TestRelay) {
  const services = servicesOf(relay)
  await scanForEvents(services)
  await sendDueMails(services)
  const sending = () => relay.relay.db.selectFrom('mail_queue').select('id').where('status', '=', 'sending').execute()
  await vi.waitFor(async () => expect(await sending()).toEqual([]), { timeout: 8000, interval: 20 })
}

describeEachDatabase(
  'notification mails',
  (ctx) => {
    afterEach(() => expectLedgerInvariants(ctx.relay.db))

    async function admin(): Promise<PointsUser> {
      const user = await quickUser(ctx)
      await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
      return user
    }
    const settings = (user: PointsUser, body: Partial<SettingsBody>, lang = 'zh') =>
      ctx.call(notificationEndpoints.saveSettings, {
        token: user.token,
        headers: { 'accept-language': lang },
        body: { balance_low: true, package_expiry: true, ticket_reply: true, new_sign_in: true, balance_threshold: null, ...body },
      })
    const ticketOf = (user: PointsUser) => ctx.call(ticketEndpoints.create, { token: user.token, body: { type: 'consultation', title: 'How do I', content: 'set it up?' } })
    const answer = (operator: PointsUser, ticket: { id: string }, content: string) =>
      ctx.call(adminEndpoints.replyTicket, { params: { id: ticket.id }, token: operator.token, body: { content } })
    const settingsOf = (user: PointsUser) => ctx.call(notificationEndpoints.settings, { token: user.token })
    const queued = (userId: string) => ctx.relay.db.selectFrom('mail_queue').selectAll().where('user_id', '=', userId).orderBy('id').execute()
    /** The sender looks for balances and package ends once a minute of the relay's clock. */
    const nextScan = () => ctx.clock.advance(minute + 1)

    it('mails a ticket answer once, from the console and from the CLI, in the language of the user, with text and HTML', async () => {
      const user = await quickUser(ctx)
      await settings(user, {}, 'en')
      const operator = await admin()
      const ticket = await ticketOf(user)
      await answer(operator, ticket, 'Like this.')
      const [first] = await delivered(ctx.smtp, emailOf(user), 1)
      expect(first!.subject).toBe(`New reply on ticket ${ticket.number}`)
      expect(first!.text).toContain(`${ctx.config.publicUrl}/tickets/${ticket.id}`)
      expect(first!.text).toMatch(/Stop mails like this: http.*\/unsubscribe\?token=/)
      expect(first!.html).toContain('<a href=')
      expect(first!.html).toContain('Read the reply')

      expect((await runOperatorCli(ctx, 'ticket', 'reply', ticket.number, '--message', 'And also this.')).code).toBe(0)
      await delivered(ctx.smtp, emailOf(user), 2)
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toHaveLength(2)
      const rows = await queued(user.id)
      expect(rows.map((row) => [row.event, row.status, row.attempts])).toEqual([
        ['ticket_reply', 'sent', 1],
        ['ticket_reply', 'sent', 1],
      ])
    })

    it('sends nothing of a kind the user turned off, and reads the settings back', async () => {
      const user = await quickUser(ctx)
      const saved = await settings(user, { ticket_reply: false, balance_threshold: 500 })
      expect(saved).toEqual({ balance_low: true, package_expiry: true, ticket_reply: false, new_sign_in: true, balance_threshold: 500 })
      expect(await settingsOf(user)).toEqual(saved)
      const operator = await admin()
      const ticket = await ticketOf(user)
      await answer(operator, ticket, 'Answer.')
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toEqual([])
      expect(await queued(user.id)).toEqual([])
    })

    it('turns a kind off from the link in the mail, without a session: GET only shows, POST turns it off', async () => {
      const user = await quickUser(ctx)
      const operator = await admin()
      const ticket = await ticketOf(user)
      await answer(operator, ticket, 'One.')
      const [mail] = await delivered(ctx.smtp, emailOf(user), 1)
      const token = new URL(mail!.text.match(/(http\S+\/unsubscribe\?token=\S+)/)![1]!).searchParams.get('token')!

      const shown = await ctx.call(notificationEndpoints.unsubscribeInfo, { query: { token } })
      expect(shown).toEqual({ kind: 'ticket_reply', email: `${emailOf(user)[0]}***@example.com`, enabled: true })
      expect((await settingsOf(user)).ticket_reply).toBe(true)

      const off = await ctx.call(notificationEndpoints.unsubscribe, { body: { token } })
      expect(off).toMatchObject({ kind: 'ticket_reply', enabled: false })
      expect(await settingsOf(user)).toMatchObject({ ticket_reply: false, new_sign_in: true })

      await answer(operator, ticket, 'Two.')
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toHaveLength(1)

      const forged = token.replace(/\.ticket_reply\./, '.new_sign_in.')
      for (const bad of [forged, 'nonsense', `${token}x`]) {
        expect((await ctx.refusal(notificationEndpoints.unsubscribe, { body: { token: bad } })).status).toBe(404)
      }
    })

    it('mails a sign-in from a new browser or network once, and none for the first device or a known one', async () => {
      const account = await ctx.signUp()
      const login = (userAgent: string, ip: string) =>
        ctx.call(accountEndpoints.login, { body: { username: account.username, password: account.password }, headers: { 'user-agent': userAgent }, ip })
      // signUp registered from 10.x.y.z without a User-Agent: that is the first device.
      const firstIp = (await ctx.relay.db.selectFrom('sign_in_devices').select('device_hash').where('user_id', '=', account.login.user.id).execute()).length
      expect(firstIp).toBe(1)
      await login('Firefox/140', '198.51.100.7')
      await login('Firefox/140', '198.51.100.99')
      const [mail] = await delivered(ctx.smtp, account.email, 2)
      expect(mail!.subject).toBe('注册验证码')
      const notice = ctx.smtp.messages(account.email)[1]!
      expect(notice.subject).toBe('您的账户在新设备上登录')
      expect(notice.text).toContain('198.51.100.7')
      // The device as the security page names it, not the raw User-Agent.
      expect(notice.text).toContain('设备：Firefox')
      await login('Chrome/150', '198.51.100.7')
      await delivered(ctx.smtp, account.email, 3)
      await drainMail(ctx)
      expect(ctx.smtp.messages(account.email)).toHaveLength(3)
    })

    it('mails a balance below the threshold once per fall', async () => {
      const user = await quickUser(ctx)
      await redeemFresh(ctx, user)
      await settings(user, { balance_threshold: 1000 }, 'ja')
      nextScan()
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toEqual([])

      // 2400 - 1800: below 1000 even if an hour's refill (100) comes in between.
      await spend(servicesOf(ctx), { userId: user.id, amount: 1800, model: null })
      nextScan()
      const [first] = await delivered(ctx.smtp, emailOf(user), 1)
      expect(first!.subject).toBe('ポイント残高が 1,000 を下回りました')
      expect(first!.text).toContain('1,000')
      // Saving the same threshold again is no new fall.
      await settings(user, { balance_threshold: 1000 }, 'ja')
      nextScan()
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toHaveLength(1)

      await grant(servicesOf(ctx), { userId: user.id, amount: 800, reason: 'back up' })
      nextScan()
      await drainMail(ctx)
      await spend(servicesOf(ctx), { userId: user.id, amount: 600, model: null })
      nextScan()
      await delivered(ctx.smtp, emailOf(user), 2)
      await drainMail(ctx)
      expect((await queued(user.id)).map((row) => row.dedupe_key)).toEqual([`balance_low:${user.id}:1`, `balance_low:${user.id}:2`])
    })

    it('mails a package three days before its end and at its end, once each', async () => {
      const user = await quickUser(ctx)
      await redeemFresh(ctx, user)
      const subscription = await ctx.relay.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
      ctx.clock.set(subscription.end_timestamp - 4 * day)
      nextScan()
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toEqual([])
      ctx.clock.set(subscription.end_timestamp - 3 * day + minute)
      nextScan()
      const [expiring] = await delivered(ctx.smtp, emailOf(user), 1)
      expect(expiring!.subject).toMatch(/^套餐「.+」将于三天内到期$/)
      ctx.clock.advance(day)
      nextScan()
      await drainMail(ctx)
      ctx.clock.set(subscription.end_timestamp + minute)
      nextScan()
      const [, expired] = await delivered(ctx.smtp, emailOf(user), 2)
      expect(expired!.subject).toMatch(/^套餐「.+」已到期$/)
      nextScan()
      await drainMail(ctx)
      expect(ctx.smtp.messages(emailOf(user))).toHaveLength(2)
    })
  },
  { mailPollMs: 50 },
)

describe.each(databaseKinds())('the mail queue with two relays and an SMTP server that goes away (%s)', (kind) => {
  let database: TestDatabase
  let sink: SmtpSink
  let relays: TestRelay[]

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    sink = await startSmtpSink()
    // Two relays on one database, each with its own sender, both delivering to the same SMTP server.
    relays = [await startTestRelay(database, { smtpUrl: sink.url, mailPollMs: 50 })]
    relays.push(await startTestRelay(database, { smtpUrl: sink.url, mailPollMs: 50 }))
  })
  afterAll(async () => {
    for (const relay of relays) await relay.close()
    await sink.close()
    await database.dispose()
  })

  it('loses no mail while SMTP is down and delivers each exactly once when it is back', async () => {
    const [one, two] = relays as [TestRelay, TestRelay]
    const port = sink.smtpPort
    await sink.close()

    const operator = await quickUser(one)
    await one.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', operator.id).execute()
    const users = await Promise.all(Array.from({ length: 6 }, () => quickUser(one)))
    for (const [i, user] of users.entries()) {
      const relay = i % 2 === 0 ? one : two
      const ticket = await relay.call(ticketEndpoints.create, { token: user.token, body: { type: 'other', title: 'T', content: 'C' } })
      await relay.call(adminEndpoints.replyTicket, { params: { id: ticket.id }, token: operator.token, body: { content: 'Answer' } })
    }
    // Both senders tried and failed; every mail is waiting for its next attempt.
    await vi.waitFor(
      async () => {
        const rows = await one.relay.db.selectFrom('mail_queue').select(['status', 'attempts', 'last_error']).execute()
        expect(rows).toHaveLength(6)
        for (const row of rows) expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('ECONNREFUSED') })
      },
      { timeout: 8000, interval: 50 },
    )
    expect([...one.logs, ...two.logs].some((line) => line.includes('WARN mail delivery failed'))).toBe(true)

    sink = await startSmtpSink({ smtpPort: port })
    for (const relay of relays) relay.clock.advance(retryDelayMs(1) + 1)
    for (const user of users) await delivered(sink, `${user.username.toLowerCase()}@example.com`, 1)
    const queue = () => one.relay.db.selectFrom('mail_queue').select(['status', 'attempts']).execute()
    const allSentOnce = Array.from({ length: 6 }, () => ({ status: 'sent', attempts: 2 }))
    // Received is not yet recorded: a row still `sending` when the clock jumps past its claim
    // would be due again, which no real send takes long enough for.
    await vi.waitFor(async () => expect(await queue()).toEqual(allSentOnce), { timeout: 8000, interval: 50 })
    for (const relay of relays) relay.clock.advance(retryDelayMs(5))
    for (const relay of relays) await drainMail(relay)
    expect(sink.messages()).toHaveLength(6)
    expect(await queue()).toEqual(allSentOnce)
  })
})
