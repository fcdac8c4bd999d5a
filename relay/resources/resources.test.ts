import { resourceEndpoints } from '../contract/resources.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { addResourceLink, removeResourceLink } from './service.ts'

describeEachDatabase('resource links', (ctx) => {
  const list = (token: string) => ctx.call(resourceEndpoints.list, { token })

  it('lists the links in display order with their count and the time of the last change, removals included', async () => {
    const { login } = await ctx.signUp()
    expect(await list(login.access_token)).toEqual({ items: [], count: 0, last_updated_timestamp: null })

    const db = ctx.relay.db
    const added = ctx.clock.now()
    const guide = await addResourceLink(db, { title: ' Guide ', url: 'https://docs.example.com/guide', description: 'Start here', sortOrder: 2 }, added)
    const status = await addResourceLink(db, { title: 'Status <page>', url: 'http://status.example.com' }, added)
    ctx.clock.advance(5_000)
    const faq = await addResourceLink(db, { title: 'FAQ', url: 'https://example.com/faq', sortOrder: 2 }, ctx.clock.now())

    const reply = await list(login.access_token)
    expect(reply).toEqual({
      items: [
        { id: status.id, title: 'Status <page>', url: 'http://status.example.com', description: null, sort_order: 0 },
        { id: guide.id, title: 'Guide', url: 'https://docs.example.com/guide', description: 'Start here', sort_order: 2 },
        { id: faq.id, title: 'FAQ', url: 'https://example.com/faq', description: null, sort_order: 2 },
      ],
      count: 3,
      last_updated_timestamp: ctx.clock.now(),
    })

    ctx.clock.advance(5_000)
    await removeResourceLink(db, guide.id, ctx.clock.now())
    const after = await list(login.access_token)
    expect(after.items.map((l) => l.id)).toEqual([status.id, faq.id])
    expect(after).toMatchObject({ count: 2, last_updated_timestamp: ctx.clock.now() })
    await expect(removeResourceLink(db, guide.id, ctx.clock.now())).rejects.toMatchObject({ reason: 'not_found' })
  })

  it('accepts only http(s) links with a title', async () => {
    const db = ctx.relay.db
    for (const url of ['javascript:alert(1)', 'ftp://example.com', 'not a url']) {
      await expect(addResourceLink(db, { title: 't', url }, ctx.clock.now())).rejects.toThrow()
    }
    await expect(addResourceLink(db, { title: '  ', url: 'https://example.com' }, ctx.clock.now())).rejects.toThrow()
  })

  it('needs a signed-in user', async () => {
    expect((await ctx.refusal(resourceEndpoints.list)).status).toBe(401)
  })
})
