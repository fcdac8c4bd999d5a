import { expect, it } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import { notificationEndpoints } from '../contract/notifications.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser, type PointsUser } from '../../tests/fixtures/points.ts'

const hour = 3_600_000
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')

describeEachDatabase('announcements', (ctx) => {
  async function admin(): Promise<PointsUser> {
    const user = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
    return user
  }
  const seen = async (user: PointsUser, lang = 'zh') =>
    (await ctx.call(notificationEndpoints.announcements, { token: user.token, headers: { 'accept-language': lang } })).items
  const mine = async (user: PointsUser, ids: string[], lang?: string) => (await seen(user, lang)).filter((item) => ids.includes(item.id))

  it('shows an announcement only within its window, in the reader language, most severe first', async () => {
    const operator = await admin()
    const reader = await quickUser(ctx)
    const now = ctx.clock.now()
    const info = await ctx.call(adminEndpoints.createAnnouncement, {
      token: operator.token,
      body: { level: 'info', message_zh: '维护通知', message_en: 'Maintenance tonight', starts_at: now + hour, ends_at: now + 3 * hour },
    })
    expect(info).toMatchObject({ level: 'info', message_ja: '维护通知', starts_at: now + hour })
    const cli = await runOperatorCli(ctx, 'announcement', 'create', '--level', 'critical', '--message', 'Outage', '--until', utc(now + 2 * hour))
    expect(cli.code).toBe(0)
    const ids = [info.id, cli.stdout.trim()]

    expect(await mine(reader, ids)).toEqual([expect.objectContaining({ id: ids[1], level: 'critical', message: 'Outage' })])
    ctx.clock.advance(hour)
    expect((await mine(reader, ids, 'en')).map((item) => [item.level, item.message])).toEqual([
      ['critical', 'Outage'],
      ['info', 'Maintenance tonight'],
    ])
    ctx.clock.advance(hour + 60_000)
    expect((await mine(reader, ids)).map((item) => item.message)).toEqual(['维护通知'])
    ctx.clock.advance(hour)
    expect(await mine(reader, ids)).toEqual([])

    const list = await runOperatorCli(ctx, 'announcement', 'list')
    expect(list.stdout).toMatch(/id\s+level\s+from \(UTC\)\s+until \(UTC\)\s+state\s+message \(zh\)/)
    expect(list.stdout).toContain('ended')
  })

  it('hides a dismissed announcement for that user only; removing one is audited from console and CLI', async () => {
    const operator = await admin()
    const [a, b] = [await quickUser(ctx), await quickUser(ctx)]
    const now = ctx.clock.now()
    const { id } = await ctx.call(adminEndpoints.createAnnouncement, { token: operator.token, body: { level: 'warning', message_zh: '注意', ends_at: now + hour } })
    const { dismissAnnouncement } = notificationEndpoints
    const dismissing = (user: PointsUser, which = id) => ({ params: { id: which }, token: user.token })
    await ctx.call(dismissAnnouncement, dismissing(a))
    await ctx.call(dismissAnnouncement, dismissing(a))
    expect(await mine(a, [id])).toEqual([])
    expect(await mine(b, [id])).toHaveLength(1)
    expect((await ctx.refusal(dismissAnnouncement, dismissing(a, '123'))).status).toBe(404)

    const listed = await ctx.call(adminEndpoints.announcements, { token: operator.token })
    expect(listed.items.map((item) => item.id)).toContain(id)
    const removing = { params: { id }, token: operator.token }
    await ctx.call(adminEndpoints.removeAnnouncement, removing)
    expect(await mine(b, [id])).toEqual([])
    expect((await ctx.refusal(adminEndpoints.removeAnnouncement, removing)).status).toBe(404)

    const other = await runOperatorCli(ctx, 'announcement', 'create', '--level', 'info', '--message', 'x', '--until', utc(now + hour))
    expect((await runOperatorCli(ctx, 'announcement', 'remove', other.stdout.trim())).code).toBe(0)
    expect((await runOperatorCli(ctx, 'announcement', 'remove', other.stdout.trim())).stderr).toContain('no announcement')

    const audit = await ctx.relay.db.selectFrom('audit_log').select(['action', 'actor_kind', 'target_ref']).where('target_kind', '=', 'announcement').where('target_ref', 'in', [id, other.stdout.trim()]).orderBy('id').execute()
    expect(audit.map((row) => [row.action, row.actor_kind])).toEqual([
      ['announcement.create', 'admin'],
      ['announcement.remove', 'admin'],
      ['announcement.create', 'cli'],
      ['announcement.remove', 'cli'],
    ])
  })

  it('refuses a window that ends before it starts or already ended', async () => {
    const operator = await admin()
    const now = ctx.clock.now()
    for (const body of [
      { level: 'info', message_zh: 'x', starts_at: now + hour, ends_at: now },
      { level: 'info', message_zh: 'x', ends_at: now - 1 },
    ] as const) {
      expect((await ctx.refusal(adminEndpoints.createAnnouncement, { token: operator.token, body })).status).toBe(400)
    }
  })
})
