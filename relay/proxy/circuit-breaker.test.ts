import { describe, expect, it } from 'vitest'
import { CircuitBreaker } from './circuit-breaker.ts'

function breaker() {
  let now = 1_000_000
  const changes: Array<[string, number | null]> = []
  const circuits = new CircuitBreaker({ failures: 3, windowMs: 10_000, coolDownMs: 30_000 }, { now: () => now }, (id, until) => changes.push([id, until]))
  const fail = (id: string) => circuits.record(id, circuits.admit(id)!, 'failure')
  return { circuits, changes, fail, advance: (ms: number) => (now += ms), now: () => now }
}

describe('circuit breaker', () => {
  it('opens after the given failures in a row within the window, and only then', () => {
    const { circuits, changes, fail, advance, now } = breaker()
    fail('a')
    fail('a')
    // A success ends the run of failures.
    circuits.record('a', circuits.admit('a')!, 'success')
    fail('a')
    fail('a')
    // The first of three failures is older than the window by the third.
    advance(10_001)
    fail('a')
    expect(circuits.state('a')).toEqual({ state: 'closed' })
    expect(circuits.admit('a')).toBe('closed')
    fail('a')
    expect(changes).toEqual([])
    fail('a')
    expect(circuits.state('a')).toEqual({ state: 'open', until: now() + 30_000 })
    expect(changes).toEqual([['a', now() + 30_000]])
    expect(circuits.admit('a')).toBeNull()
    // Other providers are not touched.
    expect(circuits.admit('b')).toBe('closed')
  })

  it('after the cool-down lets one call try: its success closes, its failure opens again', () => {
    const { circuits, changes, fail, advance, now } = breaker()
    for (let i = 0; i < 3; i++) fail('a')
    advance(29_999)
    expect(circuits.admit('a')).toBeNull()
    advance(1)
    expect(circuits.state('a')).toEqual({ state: 'half-open' })
    expect(circuits.admit('a')).toBe('trial')
    // One trial at a time.
    expect(circuits.admit('a')).toBeNull()
    circuits.record('a', 'trial', 'failure')
    expect(circuits.state('a')).toEqual({ state: 'open', until: now() + 30_000 })

    advance(30_000)
    expect(circuits.admit('a')).toBe('trial')
    // A trial that ends without a verdict (the client left) lets the next call try.
    circuits.record('a', 'trial', 'no verdict')
    expect(circuits.state('a')).toEqual({ state: 'half-open' })
    expect(circuits.admit('a')).toBe('trial')
    circuits.record('a', 'trial', 'success')
    expect(circuits.state('a')).toEqual({ state: 'closed' })
    expect(changes.map(([, until]) => until)).toEqual([now() - 30_000, now(), null])
    // Closed afresh: it takes a whole run of failures again.
    fail('a')
    fail('a')
    expect(circuits.admit('a')).toBe('closed')
  })

  it('says how long until the first of several open circuits lets a trial through', () => {
    const { circuits, fail, advance } = breaker()
    for (let i = 0; i < 3; i++) fail('a')
    advance(1000)
    for (let i = 0; i < 3; i++) fail('b')
    expect(circuits.reopensInMs(['b', 'a'])).toBe(29_000)
    advance(29_000)
    expect(circuits.admit('a')).toBe('trial')
    // Its trial in flight, the next call is told to come back at once, not in a negative time.
    expect(circuits.admit('a')).toBeNull()
    expect(circuits.reopensInMs(['b', 'a'])).toBe(0)
  })
})
