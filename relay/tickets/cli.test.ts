import { ticketEndpoints } from '../contract/tickets.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'

describeEachDatabase('ticket CLI', (ctx) => {
  const admin = (...argv: string[]) => runOperatorCli(ctx, ...argv)
  async function openTicket(title = 'Help') {
    const account = await ctx.signUp()
    const created = await ctx.call(ticketEndpoints.create, {
      token: account.login.access_token,
      body: { type: 'consultation', title, content: 'What now?' },
    })
    return { account, id: created.id, number: created.number }
  }
  const detail = (token: string, id: string) => ctx.call(ticketEndpoints.detail, { params: { id }, token })

  it('replies as support by number or id, moves the status, and the owner sees it in the conversation', async () => {
    const { account, id, number } = await openTicket()
    ctx.clock.advance(60_000)
    const replied = await admin('ticket', 'reply', number.toLowerCase(), '--message', 'Looking into it', '--status', 'processing')
    expect(replied).toMatchObject({ code: 0, stdout: `replied to ${number}; status processing` })
    let seen = await detail(account.login.access_token, id)
    expect(seen).toMatchObject({ status: 'processing', reply_timestamp: ctx.clock.now() })
    expect(seen.messages).toEqual([
      { id: expect.any(String), author_kind: 'admin', author_name: null, content: 'Looking into it', create_timestamp: ctx.clock.now() },
    ])

    expect((await admin('ticket', 'reply', id, '--message', 'Fixed')).code).toBe(0)
    seen = await detail(account.login.access_token, id)
    expect(seen.status).toBe('processing')
    expect(seen.messages.map((m) => m.content)).toEqual(['Looking into it', 'Fixed'])
  })

  it('shows a ticket without passing its author\'s terminal escape sequences to the operator\'s terminal', async () => {
    const account = await ctx.signUp()
    const hostile = 'red \u001b[31mtext\u001b[0m, title \u001b]0;pwned\u0007, clipboard \u001b]52;c;ZXZpbA==\u0007, bidi \u202Etxt.exe'
    const created = await ctx.call(ticketEndpoints.create, {
      token: account.login.access_token,
      body: { type: 'other', title: 'Hi \u001b[2J', content: hostile },
    })
    const shown = await admin('ticket', 'show', created.id)
    expect(shown.code).toBe(0)
    // eslint-disable-next-line no-control-regex
    expect(shown.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    expect(shown.stdout).toContain('red ^[[31mtext^[[0m')
    expect(shown.stdout).toContain('bidi \ufffdtxt.exe')
  })

  it('refuses an illegal status change and then keeps neither the reply nor the change', async () => {
    const { account, id, number } = await openTicket()
    expect((await admin('ticket', 'reply', number, '--message', 'Done', '--status', 'completed')).code).toBe(0)
    const refused = await admin('ticket', 'reply', number, '--message', 'Back to work', '--status', 'processing')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('a completed ticket cannot become processing')
    const seen = await detail(account.login.access_token, id)
    expect(seen.status).toBe('completed')
    expect(seen.messages.map((m) => m.content)).toEqual(['Done'])
  })

  it('assigns a ticket to a user by name, who then signs the replies; tags are set and cleared', async () => {
    const { account, id, number } = await openTicket()
    const agent = await ctx.signUp()
    expect(await admin('ticket', 'assign', number, '--to', agent.username)).toMatchObject({ code: 0, stdout: `${number} assigned to ${agent.username}` })
    await admin('ticket', 'reply', number, '--message', 'Hi, I am on it')
    expect(await admin('ticket', 'tag', number, '--tags', 'billing, urgent,billing,')).toMatchObject({ code: 0, stdout: `${number} tags: billing, urgent` })
    const seen = await detail(account.login.access_token, id)
    expect(seen).toMatchObject({ assignee_id: agent.login.user.id, assignee_name: agent.username, tags: ['billing', 'urgent'] })
    expect(seen.messages[0]).toMatchObject({ author_kind: 'admin', author_name: agent.username })

    expect((await admin('ticket', 'tag', number, '--tags', '')).code).toBe(0)
    expect((await detail(account.login.access_token, id)).tags).toEqual([])
    const nobody = await admin('ticket', 'assign', number, '--to', 'nobody_here')
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toContain('no user nobody_here')
  })

  it('lists every user\'s tickets with a status filter and shows one with its conversation', async () => {
    const first = await openTicket('First <b>problem</b>')
    const second = await openTicket('Second problem')
    await ctx.call(ticketEndpoints.close, { params: { id: second.id }, token: second.account.login.access_token })

    const open = await admin('ticket', 'list', '--status', 'open')
    expect(open.code).toBe(0)
    expect(open.stdout).toContain(first.number)
    expect(open.stdout).toContain(first.account.username)
    expect(open.stdout).not.toContain(second.number)
    expect((await admin('ticket', 'list', '--status', 'closed')).stdout).toContain(second.number)
    expect((await admin('ticket', 'list')).stdout).toMatch(new RegExp(`${second.number}[\\s\\S]*${first.number}`))

    await admin('ticket', 'reply', first.number, '--message', 'Answer')
    const shown = await admin('ticket', 'show', first.number)
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('title: First <b>problem</b>')
    expect(shown.stdout).toMatch(new RegExp(`${first.account.username}: What now\\?[\\s\\S]*support \\(operator\\): Answer`))
  })

  it('explains bad calls: unknown tickets, missing arguments, statuses operators cannot set', async () => {
    const { number } = await openTicket()
    const unknown = await admin('ticket', 'reply', 'T0001010001', '--message', 'x')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no ticket T0001010001')
    expect((await admin('ticket', 'reply', '--message', 'x')).code).toBe(2)
    expect((await admin('ticket', 'reply', number, 'extra', '--message', 'x')).code).toBe(2)
    expect((await admin('ticket', 'reply', number, '--message', 'x', '--status', 'closed')).code).toBe(2)
    expect((await admin('ticket', 'reply', number, '--message', '   ')).code).toBe(2)
    expect((await admin('ticket', 'list', '--status', 'done')).code).toBe(2)
    const help = await admin('ticket', 'reply', '--help')
    expect(help.stdout).toContain('Usage: npm run -s admin -- ticket reply <ticket> [options]')
  })
})
