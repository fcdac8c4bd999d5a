/** Every time-dependent rule reads this, never Date.now(), so tests can move time (docs/architecture.md §6). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
