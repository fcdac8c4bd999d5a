/**
 * A provider's answer as the client's response body: each chunk is forwarded the moment it
 * arrives and only then shown to the usage meter (a logical tee: the meter reads the same bytes,
 * it never holds the stream up). Backpressure reaches the provider: a slow client pauses the
 * upstream socket. When the answer ends, however it ends, `onEnd` runs once (the settlement),
 * after the client's stream has ended: metering never delays a byte. `onEnd` must not throw.
 */
import type { UpstreamResponse } from './upstream.ts'
import { SseSplitter } from './sse.ts'
import type { UsageMeter } from './usage-meter.ts'

/** completed: the provider finished; cut: the provider broke off; abandoned: the client left. */
export type StreamEnd = 'completed' | 'cut' | 'abandoned'

export interface ResponseStreamOptions {
  upstream: UpstreamResponse
  meter: UsageMeter
  /** SSE (the client asked to stream) or one JSON body. */
  streamed: boolean
  /** Events to leave out (the usage chunk the relay asked for on the client's behalf). */
  drop?: (data: string) => boolean
  onEnd(end: StreamEnd): Promise<void>
}

/**
 * `body`, and `filled`: resolves once the answer has ended, or the body holds as much as it
 * buffers (then the provider is paused until the client reads). For a JSON answer (not
 * `streamed`) that ended within the buffer, it resolves with the whole answer: sent as one
 * buffer, it spares the server reading a web stream back (a twentieth of a millisecond a call).
 */
export function responseStream({ upstream, meter, streamed, drop, onEnd }: ResponseStreamOptions): { body: ReadableStream<Uint8Array>; filled: Promise<Buffer<ArrayBuffer> | null> } {
  const { body } = upstream
  let fill!: (whole: Buffer<ArrayBuffer> | null) => void
  const filled = new Promise<Buffer<ArrayBuffer> | null>((resolve) => (fill = resolve))
  /** A JSON answer's chunks, while it may still end within the buffer. */
  let whole: Buffer[] | null = streamed ? null : []
  const splitter = streamed ? new SseSplitter() : null
  const encoder = new TextEncoder()
  let ended: Promise<void> | null = null
  const end = (how: StreamEnd) => (ended ??= onEnd(how))

  /** Shows a forwarded chunk to the meter. */
  const observe = (chunk: Buffer) => {
    if (!splitter) return meter.body(chunk)
    for (const event of splitter.push(chunk)) meter.event(event.data)
  }
  /** The chunk's whole events but the dropped ones, metered all the same (holds back a partial event). */
  const filter = (events: SseSplitter, chunk: Buffer, keep: (data: string) => boolean): Uint8Array | null => {
    let out = ''
    for (const event of events.push(chunk)) {
      meter.event(event.data)
      if (keep(event.data)) out += event.raw
    }
    return out ? encoder.encode(out) : null
  }

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.on('data', (chunk: Buffer) => {
          if (ended) return
          if (drop && splitter) {
            const kept = filter(splitter, chunk, (data) => !drop(data))
            if (kept) controller.enqueue(kept)
          } else {
            controller.enqueue(chunk)
            whole?.push(chunk)
            observe(chunk)
          }
          if ((controller.desiredSize ?? 1) <= 0) {
            body.pause()
            whole = null
            fill(null)
          }
        })
        // The client's stream ends first; the settlement follows without holding it up.
        body.on('end', () => {
          const rest = drop && splitter ? splitter.rest() : ''
          try {
            if (rest) controller.enqueue(encoder.encode(rest))
            controller.close()
          } catch {
            // The client cancelled meanwhile.
          }
          fill(whole && Buffer.concat(whole))
          void end('completed')
        })
        // An error (reset, idle timeout) is followed by `close`; `close` without `end` is a cut.
        body.on('error', () => {})
        body.on('close', () => {
          if (body.readableEnded) return
          try {
            controller.error(new Error('the provider broke off the answer'))
          } catch {
            // Already cancelled by the client.
          }
          fill(null)
          void end('cut')
        })
      },
      pull() {
        body.resume()
      },
      cancel() {
        const settling = end('abandoned')
        upstream.abort()
        return settling
      },
    },
    { highWaterMark: 16 },
  )
  return { body: stream, filled }
}
