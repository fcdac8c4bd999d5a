/**
 * Status-page incidents from the console's calls and the CLI alike: posted, corrected, resolved,
 * each change on the audit log with who made it, and `/api/public/status` showing them at once.
 */
import { expect, it } from 'vitest'
import { adminEndpoints } from '../contract/admin.ts'
import { publicEndpoints } from '../contract/public.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { quickUser } from '../../tests/fixtures/points.ts'

describeEachDatabase('status-page incidents', (ctx) => {
  async function admin() {
    const user = await quickUser(ctx)
    await ctx.relay.db.updateTable('users').set({ user_type: 'admin' }).where('id', '=', user.id).execute()
    return user
  }
  const publicIncidents = async () => (await ctx.call(publicEndpoints.status)).incidents

  it('posts, corrects and resolves an incident from the console, audited, shown on the status page at once', async () => {
    const operator = await admin()
    const posted = await ctx.call(adminEndpoints.createIncident, { token: operator.token, body: { title: 'Slow answers from one provider', body: 'We are on it.' } })
    const id = posted.id
    expect(posted).toMatchObject({ title: 'Slow answers from one provider', body: 'We are on it.', resolved_timestamp: null })
    expect(await publicIncidents()).toContainEqual(expect.objectContaining({ id, title: 'Slow answers from one provider', resolved_timestamp: null }))

    const changed = await ctx.call(adminEndpoints.updateIncident, { params: { id }, token: operator.token, body: { title: 'Slow answers from provider A' } })
    expect(changed).toMatchObject({ title: 'Slow answers from provider A', body: null })
    ctx.clock.advance(60_000)
    const resolving = { params: { id }, token: operator.token }
    const resolved = await ctx.call(adminEndpoints.resolveIncident, resolving)
    expect(resolved.resolved_timestamp).toBe(ctx.clock.now())
    const again = await ctx.refusal(adminEndpoints.resolveIncident, resolving)
    expect(again.status).toBe(422)
    expect(await publicIncidents()).toContainEqual(expect.objectContaining({ id, title: 'Slow answers from provider A', resolved_timestamp: ctx.clock.now() }))

    for (const bad of [{ title: '' }, { title: 'x'.repeat(201) }, { title: 'ok', body: 'y'.repeat(4001) }]) {
      expect((await ctx.refusal(adminEndpoints.createIncident, { token: operator.token, body: bad })).status).toBe(400)
    }
    expect((await ctx.refusal(adminEndpoints.updateIncident, { params: { id: '123' }, token: operator.token, body: { title: 'x' } })).status).toBe(404)

    const audit = await ctx.relay.db.selectFrom('audit_log').select(['action', 'actor_name', 'before', 'after']).where('target_kind', '=', 'incident').where('target_ref', '=', id).orderBy('id').execute()
    expect(audit.map((row) => [row.action, row.actor_name])).toEqual([
      ['incident.create', operator.username],
      ['incident.update', operator.username],
      ['incident.resolve', operator.username],
    ])
    expect(JSON.parse(audit[1]!.before!)).toEqual({ title: 'Slow answers from one provider', body: 'We are on it.' })
  })

  it('does the same from the CLI, which lists what the console posted', async () => {
    const added = await runOperatorCli(ctx, 'incident', 'add', '--title', 'Maintenance tonight', '--body', '23:00–23:30 UTC+8')
    expect(added.code).toBe(0)
    const id = added.stdout.trim()
    expect(await runOperatorCli(ctx, 'incident', 'update', id, '--title', 'Maintenance tonight, 30 minutes')).toMatchObject({ code: 0, stdout: `updated ${id}` })
    expect((await runOperatorCli(ctx, 'incident', 'list')).stdout).toMatch(new RegExp(`${id} .* open .*Maintenance tonight, 30 minutes`))
    expect(await runOperatorCli(ctx, 'incident', 'resolve', id)).toMatchObject({ code: 0, stdout: `resolved ${id}` })
    expect(await runOperatorCli(ctx, 'incident', 'resolve', id)).toMatchObject({ code: 1 })
    expect(await runOperatorCli(ctx, 'incident', 'update', 'nope', '--title', 'x')).toMatchObject({ code: 1, stderr: 'incident update: no incident nope' })
    const actions = await ctx.relay.db.selectFrom('audit_log').select(['action', 'actor_kind']).where('target_ref', '=', id).orderBy('id').execute()
    expect(actions).toEqual([
      { action: 'incident.create', actor_kind: 'cli' },
      { action: 'incident.update', actor_kind: 'cli' },
      { action: 'incident.resolve', actor_kind: 'cli' },
    ])
  })
})
