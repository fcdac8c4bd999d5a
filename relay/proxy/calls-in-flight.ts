/**
 * The relayed calls this process is answering, so a restart cuts none (docs/operating.md,
 * "Stopping and restarting"). Told to drain, the relay refuses new calls (routes.ts answers 503
 * with Retry-After in the client's format, the health call 503) while those in flight go on;
 * `ended()` says when the last has been settled. Past the grace, `cut()` aborts what is left: each
 * stream ends as cut and is charged what it delivered, as a provider breaking off would be.
 */
import { ProxyError } from './client-errors.ts'

export interface CallInFlight {
  /** Aborts when the relay cuts the call (past the grace), or `leave()` was called. */
  signal: AbortSignal
  /** The client went away: one signal for both, so the hot path keeps a single one (client-side.ts). */
  leave(): void
  /** The call is settled (its settlement queued) or refused; once is enough, more are ignored. */
  end(): void
}

/** Seconds a client refused by a draining relay waits: its retry reaches a relay still serving. */
const drainingRetryAfterSeconds = 1

export class CallsInFlight {
  readonly #calls = new Set<AbortController>()
  #draining = false
  #whenNone: (() => void)[] = []

  get draining(): boolean {
    return this.#draining
  }

  get size(): number {
    return this.#calls.size
  }

  begin(): CallInFlight {
    const call = new AbortController()
    this.#calls.add(call)
    return {
      signal: call.signal,
      leave: () => call.abort(),
      end: () => {
        if (!this.#calls.delete(call) || this.#calls.size > 0) return
        for (const resolve of this.#whenNone.splice(0)) resolve()
      },
    }
  }

  /** From now on new calls are refused; those in flight go on. */
  drain(): void {
    this.#draining = true
  }

  /** Resolves once no call is in flight. */
  ended(): Promise<void> {
    if (this.#calls.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.#whenNone.push(resolve))
  }

  /** Cuts every call still in flight; resolves, with how many there were, once each has ended. */
  async cut(): Promise<number> {
    const cut = this.#calls.size
    for (const call of this.#calls) call.abort()
    await this.ended()
    return cut
  }
}

/** What a draining relay answers a new call. */
export function drainingRefusal(): ProxyError {
  return new ProxyError('unavailable', 'This relay is restarting and takes no new calls: try again, another relay serves it.', {
    'retry-after': String(drainingRetryAfterSeconds),
    connection: 'close',
  })
}
