/**
 * Splits a server-sent-events byte stream into events, incrementally: it keeps only the text of
 * the event still incomplete, never the stream. The relay forwards the bytes themselves; this
 * reads a copy of them (usage meters) or, in the one case that needs it, decides which whole
 * events to forward (response-tap.ts).
 */

export interface SseEvent {
  /** The event's text as received, with its terminating blank line. */
  raw: string
  /** Its `data:` lines joined by newlines (the payload). */
  data: string
}

const boundary = /\r\n\r\n|\n\n|\r\r/g

export class SseSplitter {
  readonly #decoder = new TextDecoder()
  #pending = ''

  /** The events completed by `chunk`. */
  push(chunk: Uint8Array): SseEvent[] {
    this.#pending += this.#decoder.decode(chunk, { stream: true })
    const events: SseEvent[] = []
    let start = 0
    boundary.lastIndex = 0
    for (let match = boundary.exec(this.#pending); match; match = boundary.exec(this.#pending)) {
      const end = match.index + match[0].length
      const raw = this.#pending.slice(start, end)
      events.push({ raw, data: dataOf(this.#pending.slice(start, match.index)) })
      start = end
    }
    this.#pending = this.#pending.slice(start)
    return events
  }

  /** What was left without a terminating blank line when the stream ended. */
  rest(): string {
    const rest = this.#pending + this.#decoder.decode()
    this.#pending = ''
    return rest
  }
}

function dataOf(event: string): string {
  let data: string | null = null
  for (const line of event.split(/\r\n|\n|\r/)) {
    if (!line.startsWith('data:')) continue
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5)
    data = data === null ? value : `${data}\n${value}`
  }
  return data ?? ''
}
