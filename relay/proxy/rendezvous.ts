/**
 * Which of several equal providers a client session goes to (docs/decisions/073-upstream-calls.md): rendezvous —
 * highest-random-weight — hashing. Each provider scores hash(session, provider); the highest
 * score wins. Every relay computes the same scores from the same ids, so a session lands on the
 * same provider on every instance without shared state, and a provider leaving (disabled, or its
 * circuit open) moves only the sessions it had: the others keep their provider and its prompt cache.
 */
import { createHash } from 'node:crypto'

/** A session's weight for a provider: 48 bits of SHA-256, exact in a JS number. */
export function rendezvousScore(affinityKey: string, providerId: string): number {
  return createHash('sha256').update(affinityKey).update('\0').update(providerId).digest().readUIntBE(0, 6)
}

/**
 * `items` by priority, highest first, and among equal priorities by the session's score, highest
 * first. Skipping the unavailable ones of this order is the same as hashing over the available ones.
 */
export function rendezvousOrder<T extends { id: string; priority: number }>(items: readonly T[], affinityKey: string): T[] {
  return items
    .map((item) => ({ item, score: rendezvousScore(affinityKey, item.id) }))
    .sort((a, b) => b.item.priority - a.item.priority || b.score - a.score || (a.item.id < b.item.id ? -1 : 1))
    .map(({ item }) => item)
}
