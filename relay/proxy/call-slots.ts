/**
 * How many metered calls this relay process answers at once (MAX_STREAMS_PER_PROCESS), and of
 * them for one user (MAX_STREAMS_PER_USER). A long stream costs the process two sockets and some
 * memory for as long as it runs; past the process's limit a call is refused at once with a
 * retryable 503 (`relay_busy`), before its body is read or the database asked, so an overloaded
 * process sheds load instead of slowing every stream it holds or running out of open files; past
 * a user's, with a 429 (`user_streams_limited`), so one user cannot take every slot. Counted in
 * memory: the limits are the process's own (a key's concurrency limit holds across processes,
 * call-leases.ts).
 */
export class CallSlots {
  #taken = 0
  readonly #byUser = new Map<string, number>()

  constructor(
    readonly limit: number,
    readonly perUser: number,
  ) {}

  /** A slot, given back by the function returned (once, however often it is called); null when none is free. */
  take(): (() => void) | null {
    if (this.#taken >= this.limit) return null
    this.#taken += 1
    return once(() => (this.#taken -= 1))
  }

  /** One of the user's slots, given back the same way; null when the user holds `perUser` already. */
  takeForUser(userId: string): (() => void) | null {
    const taken = this.#byUser.get(userId) ?? 0
    if (taken >= this.perUser) return null
    this.#byUser.set(userId, taken + 1)
    return once(() => {
      const left = this.#byUser.get(userId)! - 1
      if (left === 0) this.#byUser.delete(userId)
      else this.#byUser.set(userId, left)
    })
  }
}

function once(release: () => void): () => void {
  let held = true
  return () => {
    if (!held) return
    held = false
    release()
  }
}
