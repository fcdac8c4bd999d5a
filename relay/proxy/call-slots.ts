/**
 * How many metered calls this relay process answers at once (MAX_STREAMS_PER_PROCESS). A long
 * stream costs the process two sockets and some memory for as long as it runs; past the limit a
 * call is refused at once with a retryable 503 (`relay_busy`), before its body is read or the
 * database asked, so an overloaded process sheds load instead of slowing every stream it holds
 * or running out of open files. Counted in memory: the limit is the process's own.
 */
export class CallSlots {
  #taken = 0

  constructor(readonly limit: number) {}

  get taken(): number {
    return this.#taken
  }

  /** A slot, given back by the function returned (once, however often it is called); null when none is free. */
  take(): (() => void) | null {
    if (this.#taken >= this.limit) return null
    this.#taken += 1
    let held = true
    return () => {
      if (!held) return
      held = false
      this.#taken -= 1
    }
  }
}
