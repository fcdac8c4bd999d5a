/**
 * How many refusals of one caller (an API key, or a user's OAuth client) a relay process records
 * in a minute: the first `refusalsRecordedPerMinute`; the rest are answered the same and only
 * counted (`relay_refusals_unrecorded_total`). A client retrying a refused call in a loop then
 * adds at most that many rows a minute to the call log per relay (docs/console.md).
 */
export const refusalsRecordedPerMinute = 30

const minuteMs = 60_000
/** Callers remembered at most; past it the map starts afresh (the cost: one more minute's share). */
const maxCallers = 10_000

export class RefusalBudget {
  #minute = -1
  readonly #counts = new Map<string, number>()

  /** Whether this refusal of `caller` at `now` is recorded. */
  take(caller: string, now: number): boolean {
    const minute = Math.floor(now / minuteMs)
    if (minute !== this.#minute || this.#counts.size >= maxCallers) {
      this.#minute = minute
      this.#counts.clear()
    }
    const count = (this.#counts.get(caller) ?? 0) + 1
    this.#counts.set(caller, count)
    return count <= refusalsRecordedPerMinute
  }
}
