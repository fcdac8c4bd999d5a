/**
 * Form keys make a creating form exactly-once (docs/decisions/005-forms.md): the page renders a fresh
 * random key into a hidden field, the action sends it to the relay as `Idempotency-Key`, and
 * the relay answers a repeat (a reload that re-posts the form, a double click) with the first
 * result instead of creating again.
 */
import { randomBytes } from 'node:crypto'
import { idempotencyKeyPattern } from '#relay/contract/index.ts'
import { formKeyField } from '#app/components/forms/form-key.tsx'
import type { WriteOptions } from './relay-client.server.ts'

/** 128 random bits, URL-safe: what the relay's Idempotency-Key accepts. */
export function newFormKey(): string {
  return randomBytes(16).toString('base64url')
}

/**
 * The relay options carrying the submitted form's key. A form without one (a page rendered
 * before keys existed) still works, once per submission as before.
 */
export function formKeyOf(formData: FormData): WriteOptions {
  const key = formData.get(formKeyField)
  return typeof key === 'string' && idempotencyKeyPattern.test(key) ? { idempotencyKey: key } : {}
}
