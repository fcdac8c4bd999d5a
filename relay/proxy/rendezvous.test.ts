import { describe, expect, it } from 'vitest'
import { rendezvousOrder } from './rendezvous.ts'

const providers = [
  { id: '101', priority: 0 },
  { id: '102', priority: 0 },
  { id: '103', priority: 0 },
]
const sessions = Array.from({ length: 600 }, (_, i) => `session:${i}`)
const firstOf = (items: typeof providers, key: string) => rendezvousOrder(items, key)[0]!.id

describe('rendezvous order', () => {
  it('is the same for a session whatever order the providers come in, and differs between sessions', () => {
    for (const key of sessions.slice(0, 50)) {
      const order = rendezvousOrder(providers, key).map((p) => p.id)
      expect(rendezvousOrder([...providers].reverse(), key).map((p) => p.id)).toEqual(order)
      expect([...order].sort()).toEqual(['101', '102', '103'])
    }
    const counts = new Map<string, number>()
    for (const key of sessions) counts.set(firstOf(providers, key), (counts.get(firstOf(providers, key)) ?? 0) + 1)
    // Spread over all three, none holding much more than its share (fixed keys: the same every run).
    expect([...counts.keys()].sort()).toEqual(['101', '102', '103'])
    for (const count of counts.values()) expect(count).toBeGreaterThan(150)
  })

  it('orders by priority first; the session only chooses among equals', () => {
    const mixed = [...providers, { id: '201', priority: 5 }, { id: '301', priority: -1 }]
    for (const key of sessions.slice(0, 50)) {
      const order = rendezvousOrder(mixed, key)
      expect(order[0]!.id).toBe('201')
      expect(order.at(-1)!.id).toBe('301')
      expect(order.slice(1, 4).map((p) => p.id)).toEqual(rendezvousOrder(providers, key).map((p) => p.id))
    }
  })

  it('moves only the sessions of a provider that leaves, each to its next choice', () => {
    const without = providers.filter((p) => p.id !== '102')
    let moved = 0
    for (const key of sessions) {
      const before = rendezvousOrder(providers, key).map((p) => p.id)
      const after = firstOf(without, key)
      if (before[0] === '102') {
        moved++
        expect(after).toBe(before[1])
      } else {
        expect(after).toBe(before[0])
      }
    }
    expect(moved).toBeGreaterThan(0)
  })
})
