/**
 * 64-bit snowflake ids: milliseconds since 2024-01-01 shifted left 22 bits, then a 10-bit worker
 * number and a 12-bit sequence. They sort by creation time and need no database round trip, so
 * several relay instances on one PostgreSQL mint ids independently (each with its own worker).
 *
 * Ids are strings everywhere in the relay: every id minted after 2024-01-26 exceeds 2^53, so a
 * JS number would silently lose digits. The database stores them as BIGINT and the HTTP layer
 * writes them as bare JSON numbers (docs/decisions/010-ids-strings-inside-bare-numbers-on-the-wire.md).
 */
import { randomInt } from 'node:crypto'

export const snowflakeEpoch = Date.UTC(2024, 0, 1)
const workerBits = 10n
const sequenceBits = 12n
const timeShift = workerBits + sequenceBits
const maxWorker = (1 << Number(workerBits)) - 1
const maxSequence = (1 << Number(sequenceBits)) - 1

export class SnowflakeGenerator {
  readonly #worker: bigint
  readonly #now: () => number
  #lastMs = -1
  #sequence = 0

  /** `now` is wall time, not the injected domain clock: ids only need to be unique and ordered. */
  constructor(workerId: number, now: () => number = Date.now) {
    if (!Number.isInteger(workerId) || workerId < 0 || workerId > maxWorker) {
      throw new RangeError(`snowflake worker id must be an integer 0–${maxWorker}, got ${workerId}`)
    }
    this.#worker = BigInt(workerId)
    this.#now = now
  }

  next(): string {
    const now = this.#now() - snowflakeEpoch
    if (now > this.#lastMs) {
      this.#lastMs = now
      this.#sequence = 0
    } else if (this.#sequence < maxSequence) {
      // Same millisecond, or the wall clock stepped back: stay on the last millisecond.
      this.#sequence += 1
    } else {
      // 4096 ids in one millisecond: borrow the next one rather than spin.
      this.#lastMs += 1
      this.#sequence = 0
    }
    const id =
      (BigInt(this.#lastMs) << timeShift) |
      (this.#worker << sequenceBits) |
      BigInt(this.#sequence)
    return id.toString()
  }
}

/** Creation time (epoch ms) encoded in a snowflake id. */
export function snowflakeTimestamp(id: string): number {
  return Number(BigInt(id) >> timeShift) + snowflakeEpoch
}

/**
 * The process-wide generator. Its worker number is random unless the operator pins one
 * (RELAY_WORKER_ID, applied by startRelay through useWorkerId); pin distinct numbers when many
 * instances share a database and a 1-in-1024 collision of random workers is not acceptable.
 */
let generator = new SnowflakeGenerator(randomInt(maxWorker + 1))

export function useWorkerId(workerId: number): void {
  generator = new SnowflakeGenerator(workerId)
}

export function newId(): string {
  return generator.next()
}


/** The smallest id minted at `ms` (epoch ms): every id below it is older. */
export function firstIdAt(ms: number): string {
  return (BigInt(Math.max(0, Math.floor(ms) - snowflakeEpoch)) << timeShift).toString()
}

/** The highest id that can have been minted at or before `ms` (epoch ms), on any worker. */
export function lastIdAt(ms: number): string {
  return (BigInt(firstIdAt(ms)) | ((1n << timeShift) - 1n)).toString()
}
