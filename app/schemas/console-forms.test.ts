/** Console forms refuse, with a message for the operator, what the relay would refuse only as "invalid input". */
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { oauthClientFormSchema } from './admin-catalog.ts'
import { announcementFormSchema } from './notifications.ts'

function parse<S extends Parameters<typeof parseWithZod>[1]['schema']>(schema: S, fields: Record<string, string>) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return parseWithZod(form, { schema })
}

/** `YYYY-MM-DDTHH:MM` in UTC+8, `ms` from now. */
const local = (ms: number) => new Date(Date.now() + ms + 8 * 3_600_000).toISOString().slice(0, 16)

describe('console forms', () => {
  it('refuses an announcement whose end has passed, and takes one still to come', () => {
    const past = parse(announcementFormSchema, { level: 'info', message_zh: '维护', ends_at: local(-60_000) })
    expect(past.status === 'error' && past.error).toEqual({ ends_at: ['admin:announcements.endsPast'] })
    expect(parse(announcementFormSchema, { level: 'info', message_zh: '维护', ends_at: local(3_600_000) }).status).toBe('success')
  })

  it('refuses a redirect URI the relay would refuse: plain http off this machine, a fragment', () => {
    for (const uri of ['http://app.example.com/callback', 'https://app.example.com/cb#x', 'not a url']) {
      const refused = parse(oauthClientFormSchema, { name: 'App', redirect_uris: `https://ok.example.com/cb\n${uri}` })
      expect(refused.status === 'error' && refused.error, uri).toEqual({ redirect_uris: ['admin:catalog.clients.redirectInvalid'] })
    }
    expect(parse(oauthClientFormSchema, { name: 'App', redirect_uris: 'https://app.example.com/cb http://127.0.0.1:8765/cb' }).status).toBe('success')
  })
})
