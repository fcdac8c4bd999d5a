import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { createTicketSchema } from './tickets.ts'

const formOf = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('ticket form', () => {
  it('says what a ticket needs (docs/product.md) as well as which field is missing', () => {
    const reply = parseWithZod(formOf({ title: 'Only a title', content: '   ' }), { schema: createTicketSchema }).reply()
    expect(reply.error).toMatchObject({
      '': ['tickets:create.missing'],
      type: ['validation:required'],
      content: ['validation:required'],
    })
    expect(reply.error?.title).toBeUndefined()
  })

  it('takes a complete ticket, trimmed, with medium priority by default', () => {
    const submission = parseWithZod(formOf({ type: 'consultation', title: ' Help ', content: 'Details' }), { schema: createTicketSchema })
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({ type: 'consultation', priority: 'medium', title: 'Help', content: 'Details' })
  })

  it('refuses a type the relay does not know, and a title over the bound', () => {
    const reply = parseWithZod(formOf({ type: 'refund', title: 'x'.repeat(121), content: 'c' }), { schema: createTicketSchema }).reply()
    expect(reply.error).toMatchObject({ type: ['validation:required'], title: ['validation:tooLong'] })
  })
})
