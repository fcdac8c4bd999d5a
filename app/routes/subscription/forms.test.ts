import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { redeemFormSchema, teamFormSchema } from './forms.ts'

function form(fields: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

const teamCode = (raw: string) => Buffer.from(raw).toString('base64url')

describe('team code form', () => {
  it('accepts base64 of <team id>:<secret>, URL-safe or standard, padded or not', () => {
    for (const code of [teamCode('7301234567890123456:abcdefgh1234'), Buffer.from('42:secretsecret').toString('base64')]) {
      const submission = parseWithZod(form({ teamCode: ` ${code} ` }), { schema: teamFormSchema })
      expect(submission.status).toBe('success')
    }
  })

  it('refuses what is not base64, or not a team code inside, with its own message key', () => {
    for (const code of ['not base64!', '%%%%', teamCode('no-colon-here'), teamCode('abc:secretsecret')]) {
      const submission = parseWithZod(form({ teamCode: code }), { schema: teamFormSchema })
      expect(submission.status).toBe('error')
      expect(submission.reply().error?.teamCode).toEqual(['subscription:join.formatInvalid'])
    }
  })

  it('asks for the code when it is empty', () => {
    const submission = parseWithZod(form({ teamCode: '  ' }), { schema: teamFormSchema })
    expect(submission.reply().error?.teamCode).toEqual(['subscription:join.required'])
  })
})

describe('redeem code form', () => {
  it('accepts codes as people paste them: lower case, spaces and hyphens', () => {
    const submission = parseWithZod(form({ redeemCode: ' abcd-efgh jklm ' }), { schema: redeemFormSchema })
    expect(submission.status).toBe('success')
  })

  it('refuses an empty code and one that cannot be a code', () => {
    expect(parseWithZod(form({ redeemCode: '' }), { schema: redeemFormSchema }).reply().error?.redeemCode).toEqual([
      'subscription:redeem.required',
    ])
    expect(parseWithZod(form({ redeemCode: 'ab!' }), { schema: redeemFormSchema }).reply().error?.redeemCode).toEqual([
      'subscription:redeem.invalid',
    ])
  })
})
