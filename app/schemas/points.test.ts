import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { resetRequestSchema } from './points.ts'

function form(fields: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('points reset form', () => {
  it('needs one of the five reasons of docs/product.md and a description', () => {
    const submission = parseWithZod(form({ reason: 'lottery', description: '' }), { schema: resetRequestSchema })
    expect(submission.reply().error?.reason).toEqual(['points:reset.reasonRequired'])
    expect(submission.reply().error?.description).toEqual(['points:reset.descriptionRequired'])
    const ok = parseWithZod(form({ reason: 'misoperation', description: 'a loop burnt my points' }), { schema: resetRequestSchema })
    expect(ok.status).toBe('success')
  })
})
