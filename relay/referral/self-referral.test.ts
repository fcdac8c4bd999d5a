import { describe, expect, it } from 'vitest'
import { isSelfReferral, mailboxOf } from './self-referral.ts'

describe('self-referral', () => {
  it('reads addresses that reach one mailbox as one', () => {
    expect(mailboxOf(' Ann+relay@Example.COM ')).toBe('ann@example.com')
    expect(mailboxOf('a.n.n+1@googlemail.com')).toBe('ann@gmail.com')
    expect(isSelfReferral('ann@gmail.com', 'A.nn+2@gmail.com')).toBe(true)
    expect(isSelfReferral('ann@example.com', 'ann+x@example.com')).toBe(true)
  })

  it('keeps different mailboxes apart: dots matter outside Gmail, a leading + is part of the name', () => {
    expect(isSelfReferral('ann@example.com', 'a.nn@example.com')).toBe(false)
    expect(isSelfReferral('ann@example.com', 'ann@example.org')).toBe(false)
    expect(mailboxOf('+ann@example.com')).toBe('+ann@example.com')
  })
})
