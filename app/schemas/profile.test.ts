import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { changePasswordSchema, profileSchema } from './profile.ts'

const formOf = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('profile forms', () => {
  it('uses the documented wording when the new password and its confirmation differ', () => {
    const reply = parseWithZod(formOf({ oldPassword: 'old-password', newPassword: 'new-password-1', confirmPassword: 'new-password-2' }), {
      schema: changePasswordSchema,
    }).reply()
    expect(reply.error).toEqual({ confirmPassword: ['profile:password.mismatch'] })
  })

  it('accepts only http(s) avatars, and empty fields', () => {
    expect(parseWithZod(formOf({ avatar: 'javascript:alert(1)' }), { schema: profileSchema }).reply().error).toEqual({
      avatar: ['profile:edit.avatarInvalid'],
    })
    expect(parseWithZod(formOf({ name: '', avatar: 'https://example.com/me.png' }), { schema: profileSchema }).status).toBe('success')
  })
})
