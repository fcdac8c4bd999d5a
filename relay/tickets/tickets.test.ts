import { expect, it } from 'vitest'
import { fillPath } from '../contract/paths.ts'
import { ticketBounds, ticketStatuses, type CreateTicketBody, type TicketStatus, ticketEndpoints } from '../contract/tickets.ts'
import type { PartInput } from '../contract/endpoint.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { addTicketMessage, canTransition, createTicket, setTicketStatus, type TicketActor } from './service.ts'

type TicketListQuery = PartInput<typeof ticketEndpoints.list, 'query'>

describeEachDatabase('tickets', (ctx) => {
  const { close, reopen, reply } = ticketEndpoints
  const detail = (token: string, id: string) => ctx.call(ticketEndpoints.detail, { params: { id }, token })
  const list = (token: string, query: TicketListQuery = {}) => ctx.call(ticketEndpoints.list, { token, query })
  const opening = (token: string, body: Partial<CreateTicketBody> = {}) => ({
    token,
    body: { type: 'consultation', priority: 'high', title: 'Cannot log in', content: 'Details', ...body } as const,
  })
  const open = (token: string, body?: Partial<CreateTicketBody>) => ctx.call(ticketEndpoints.create, opening(token, body))
  /** A ticket of `userId` made by the service, for setups that need many. */
  const seed = async (userId: string, title = 'seeded') =>
    (await createTicket(ctx.relay.db, { userId, type: 'other', priority: 'low', title, content: 'c', now: ctx.clock.now() })).id
  const staff = (ticketId: string, to: TicketStatus) =>
    setTicketStatus(ctx.relay.db, { ticketId, to, by: 'staff', now: ctx.clock.now() })
  const rowOf = (id: string) => ctx.relay.db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('opens a pending ticket with a quotable number and returns it with an empty conversation', async () => {
    ctx.clock.set(Date.UTC(2031, 4, 6, 23, 59))
    const { login } = await ctx.signUp()
    // Raw: the test reads how the id is written on the wire.
    const created = await ctx.request('POST', ticketEndpoints.create.path, opening(login.access_token, { title: '  Cannot log in  ' }))
    expect(created.status).toBe(200)
    expect(created.body.data).toMatchObject({
      type: 'consultation',
      priority: 'high',
      status: 'pending',
      title: 'Cannot log in',
      content: 'Details',
      assignee_id: null,
      assignee_name: null,
      tags: [],
      create_timestamp: ctx.clock.now(),
      update_timestamp: ctx.clock.now(),
      reply_timestamp: null,
      closed_timestamp: null,
      messages: [],
    })
    expect(created.body.data.number).toMatch(/^T310506\d{4}$/)
    expect(created.body.data.number).not.toContain(created.body.data.id)
    // Ids of 16+ digits travel as bare JSON numbers.
    expect(created.text).toContain(`"id":${created.body.data.id}`)
    const fetched = await detail(login.access_token, created.body.data.id)
    expect(fetched).toEqual(created.body.data)
  })

  it('numbers tickets per UTC day without collisions, even when opened in parallel', async () => {
    ctx.clock.set(Date.UTC(2032, 0, 1, 12))
    const users = await Promise.all([ctx.signUp(), ctx.signUp(), ctx.signUp()])
    const replies = await Promise.all(
      Array.from({ length: 15 }, (_, i) => open(users[i % 3]!.login.access_token, { title: `parallel ${i}` })),
    )
    const numbers = replies.map((r) => r.number).sort()
    expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => `T320101${String(i + 1).padStart(4, '0')}`))
    // Access tokens live two hours: the next day needs a fresh sign-in.
    ctx.clock.set(Date.UTC(2032, 0, 2, 0, 0, 1))
    const nextDay = await ctx.signUp()
    expect((await open(nextDay.login.access_token)).number).toBe('T3201020001')
  })

  it('checks type, priority, title and content bounds, and defaults the priority to medium', async () => {
    const { login } = await ctx.signUp()
    const reject = async (body: Record<string, unknown>, field: string) => {
      // Raw: some of these values are not of the declared types.
      const reply = await ctx.request('POST', ticketEndpoints.create.path, { ...opening(login.access_token), body: { ...opening(login.access_token).body, ...body } })
      expect(reply.status).toBe(400)
      expect(reply.body.error.details.fields).toHaveProperty(field)
    }
    await reject({ type: 'refund' }, 'type')
    await reject({ priority: 'urgent' }, 'priority')
    await reject({ title: '   ' }, 'title')
    await reject({ title: 'x'.repeat(ticketBounds.title.max + 1) }, 'title')
    await reject({ content: '' }, 'content')
    await reject({ content: 'x'.repeat(ticketBounds.content.max + 1) }, 'content')
    const longest = await open(login.access_token, {
      priority: undefined,
      title: 'x'.repeat(ticketBounds.title.max),
      content: 'y'.repeat(ticketBounds.content.max),
    })
    expect(longest.priority).toBe('medium')
    expect((await list(login.access_token)).total).toBe(1)
  })

  it('keeps HTML and script in titles and content exactly as typed (the portal escapes it)', async () => {
    const { login } = await ctx.signUp()
    const title = '<script>alert("t")</script><b>bold</b>'
    const content = '<img src=x onerror="alert(1)"> & "quotes"'
    const created = await open(login.access_token, { title, content })
    expect(created).toMatchObject({ title, content })
    expect((await list(login.access_token)).items[0]!.title).toBe(title)
  })

  it('answers 401 to every ticket call without a valid token', async () => {
    const { login } = await ctx.signUp()
    const id = await seed(login.user.id)
    const calls = [
      ctx.refusal(ticketEndpoints.list),
      ctx.refusal(ticketEndpoints.create, { body: { type: 'other', title: 't', content: 'c' } }),
      ctx.refusal(ticketEndpoints.detail, { params: { id } }),
      ctx.refusal(reply, { params: { id }, body: { content: 'c' } }),
      ctx.refusal(close, { params: { id } }),
      ctx.refusal(reopen, { params: { id }, token: 'not-a-token' }),
    ]
    for (const reply of await Promise.all(calls)) expect(reply.status).toBe(401)
    expect((await rowOf(id)).status).toBe('pending')
  })

  /** Brings a fresh ticket to `status` through legal transitions only. */
  async function ticketIn(userId: string, status: TicketStatus): Promise<string> {
    const id = await seed(userId)
    const now = ctx.clock.now()
    if (status === 'processing' || status === 'completed' || status === 'rejected') await staff(id, 'processing')
    if (status === 'completed' || status === 'rejected') await staff(id, status)
    if (status === 'closed') await setTicketStatus(ctx.relay.db, { ticketId: id, userId, to: 'closed', by: 'user', now })
    expect((await rowOf(id)).status).toBe(status)
    return id
  }

  const legal: Record<TicketActor, Array<[TicketStatus, TicketStatus]>> = {
    user: [
      ['pending', 'closed'],
      ['processing', 'closed'],
      ['closed', 'pending'],
    ],
    staff: [
      ['pending', 'processing'],
      ['pending', 'completed'],
      ['pending', 'rejected'],
      ['processing', 'completed'],
      ['processing', 'rejected'],
    ],
  }

  it('allows exactly the transitions of the state machine, for users and for operators', async () => {
    const { login } = await ctx.signUp()
    for (const by of ['user', 'staff'] as const) {
      for (const from of ticketStatuses) {
        for (const to of ticketStatuses) {
          const allowed = legal[by].some(([f, t]) => f === from && t === to)
          expect(canTransition(by, from, to), `${by}: ${from} → ${to}`).toBe(allowed)
          const id = await ticketIn(login.user.id, from)
          const change = setTicketStatus(ctx.relay.db, {
            ticketId: id,
            to,
            by,
            userId: by === 'user' ? login.user.id : undefined,
            now: ctx.clock.now(),
          })
          if (allowed) await expect(change).resolves.toBe(to)
          else await expect(change).rejects.toMatchObject({ reason: 'ticket_transition_invalid' })
          expect((await rowOf(id)).status, `${by}: ${from} → ${to}`).toBe(allowed ? to : from)
        }
      }
    }
  })

  it('closes and reopens through the HTTP calls, with times, and refuses illegal ones with 422', async () => {
    const { login } = await ctx.signUp()
    const token = login.access_token
    const id = (await open(token)).id
    ctx.clock.advance(60_000)
    const closed = await ctx.call(close, { params: { id }, token })
    expect(closed).toMatchObject({ status: 'closed', closed_timestamp: ctx.clock.now(), update_timestamp: ctx.clock.now() })

    const again = await ctx.refusal(close, { params: { id }, token })
    expect(again.status).toBe(422)
    expect(again.details).toMatchObject({ reason: 'ticket_transition_invalid', from: 'closed', to: 'closed' })
    expect(again.message).toBe('a closed ticket cannot become closed')

    ctx.clock.advance(60_000)
    const reopened = await ctx.call(reopen, { params: { id }, token })
    expect(reopened).toMatchObject({ status: 'pending', closed_timestamp: null, update_timestamp: ctx.clock.now() })
    expect((await ctx.refusal(reopen, { params: { id }, token })).status).toBe(422)

    for (const final of ['completed', 'rejected'] as const) {
      const finished = await ticketIn(login.user.id, final)
      for (const endpoint of [close, reopen]) {
        const refused = await ctx.refusal(endpoint, { params: { id: finished }, token })
        expect(refused.status).toBe(422)
        expect(refused.reason).toBe('ticket_transition_invalid')
      }
      expect((await rowOf(finished)).status).toBe(final)
    }
  })

  it('lets only one of two parallel closes win', async () => {
    const { login } = await ctx.signUp()
    const id = await seed(login.user.id)
    const closing = { params: { id }, token: login.access_token }
    const replies = await Promise.all([ctx.outcome(close, closing), ctx.outcome(close, closing)])
    expect(replies.map((r) => r.status).sort()).toEqual([200, 422])
  })

  it('keeps a conversation of user and operator messages; a closed ticket takes no user reply until reopened', async () => {
    const { login, username } = await ctx.signUp()
    const token = login.access_token
    const id = (await open(token)).id
    const replying = (content: string) => ({ params: { id }, token, body: { content } })
    ctx.clock.advance(1_000)
    const replied = await ctx.call(reply, replying('  more details <b>here</b>  '))
    expect(replied.messages).toEqual([
      { id: expect.any(String), author_kind: 'user', author_name: username, content: 'more details <b>here</b>', create_timestamp: ctx.clock.now() },
    ])
    expect(replied.reply_timestamp).toBeNull()

    ctx.clock.advance(1_000)
    await addTicketMessage(ctx.relay.db, { ticketId: id, kind: 'admin', authorId: null, authorName: null, content: 'On it', now: ctx.clock.now() })
    const after = await detail(token, id)
    expect(after.messages.map((m) => [m.author_kind, m.content])).toEqual([
      ['user', 'more details <b>here</b>'],
      ['admin', 'On it'],
    ])
    expect(after.messages[1]!.author_name).toBeNull()
    expect(after.reply_timestamp).toBe(ctx.clock.now())

    expect((await ctx.refusal(reply, replying('   '))).status).toBe(400)
    await ctx.call(close, { params: { id }, token })
    const refused = await ctx.refusal(reply, replying('still there?'))
    expect(refused.status).toBe(422)
    expect(refused.reason).toBe('ticket_closed')
    await ctx.call(reopen, { params: { id }, token })
    await ctx.call(reply, replying('still there?'))
    expect((await detail(token, id)).messages).toHaveLength(3)
  })

  it('pages newest first and filters by status, with open meaning pending or processing', async () => {
    const { login } = await ctx.signUp()
    const token = login.access_token
    const ids: string[] = []
    for (let i = 0; i < 12; i++) ids.push(await seed(login.user.id, `ticket ${i}`))
    await staff(ids[0]!, 'processing')
    await staff(ids[1]!, 'completed')
    await staff(ids[2]!, 'rejected')
    for (const id of ids.slice(3, 5)) await setTicketStatus(ctx.relay.db, { ticketId: id, userId: login.user.id, to: 'closed', by: 'user', now: ctx.clock.now() })

    const first = await list(token)
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 10 })
    expect(first.items.map((t) => t.title)).toEqual(Array.from({ length: 10 }, (_, i) => `ticket ${11 - i}`))
    const second = await list(token, { page: 2 })
    expect(second.items.map((t) => t.title)).toEqual(['ticket 1', 'ticket 0'])
    expect(await list(token, { page: 3 })).toMatchObject({ items: [], total: 12, page: 3 })

    const count = async (status: TicketListQuery['status']) => (await list(token, { status, page: 1, pageSize: 1 })).total
    expect(await count('open')).toBe(8)
    expect(await count('pending')).toBe(7)
    expect(await count('processing')).toBe(1)
    expect(await count('completed')).toBe(1)
    expect(await count('rejected')).toBe(1)
    expect(await count('closed')).toBe(2)
    const closed = (await list(token, { status: 'closed' })).items.map((t) => t.id)
    expect(closed.sort()).toEqual(ids.slice(3, 5).sort())

    // Raw: queries of values the call does not declare.
    for (const query of [{ status: 'done' }, { pageSize: '101' }, { page: '0' }, { pageSize: 'x' }] as Array<Record<string, string>>) {
      expect((await ctx.request('GET', ticketEndpoints.list.path, { token, query })).status).toBe(400)
    }
  })

  it("gives 404 to another user's ticket id on every call and changes nothing", async () => {
    const owner = await ctx.signUp()
    const intruder = await ctx.signUp()
    const closedId = await ticketIn(owner.login.user.id, 'closed')
    const openId = await seed(owner.login.user.id)
    const before = await Promise.all([rowOf(closedId), rowOf(openId)])
    const token = intruder.login.access_token
    // Raw: the test reads the whole answer for the ticket's title.
    const post = (endpoint: { path: string }, id: string, body?: unknown) => ctx.request('POST', fillPath(endpoint.path, { id }), { token, body })
    const calls = [
      ctx.request('GET', fillPath(ticketEndpoints.detail.path, { id: openId }), { token }),
      ctx.request('GET', fillPath(ticketEndpoints.detail.path, { id: closedId }), { token }),
      post(reply, openId, { content: 'mine now' }),
      post(close, openId),
      post(reopen, closedId),
    ]
    for (const reply of await Promise.all(calls)) {
      expect(reply.status).toBe(404)
      expect(reply.body.error.details.reason).toBe('not_found')
      expect(reply.text).not.toContain('seeded')
    }
    expect(await Promise.all([rowOf(closedId), rowOf(openId)])).toEqual(before)
    const messages = await ctx.relay.db.selectFrom('ticket_messages').select('id').where('ticket_id', 'in', [openId, closedId]).execute()
    expect(messages).toEqual([])
    expect((await list(token)).total).toBe(0)
    // Ids that exist nowhere, or cannot be ids at all.
    const detailRefused = async (id: string) => (await ctx.refusal(ticketEndpoints.detail, { params: { id }, token })).status
    expect(await detailRefused('9223372036854775807')).toBe(404)
    expect(await detailRefused('99999999999999999999')).toBe(400)
    expect(await detailRefused('abc')).toBe(400)
  })
})
