/**
 * What counts as referring oneself (docs/decisions/052-referral.md): two addresses that reach one mailbox.
 * Most providers deliver `name+anything@` to `name@`, and Gmail also ignores dots in the name, so
 * `inviter+1@example.com` is the inviter. Such an invitee is refused at registration, and a
 * reward is never paid between the two (an address can be changed after registering).
 */
const dotBlindDomains = new Set(['gmail.com', 'googlemail.com'])

/** The mailbox an address delivers to: lower case, without a `+tag`, Gmail without dots. */
export function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase()
  const at = lower.lastIndexOf('@')
  if (at < 0) return lower
  let local = lower.slice(0, at)
  let domain = lower.slice(at + 1)
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  if (dotBlindDomains.has(domain)) {
    local = local.replaceAll('.', '')
    domain = 'gmail.com'
  }
  return `${local}@${domain}`
}

export function isSelfReferral(inviterEmail: string, inviteeEmail: string): boolean {
  return mailboxOf(inviterEmail) === mailboxOf(inviteeEmail)
}
