/**
 * A provider's answer on its way to the client: each chunk is forwarded the moment it arrives and
 * only then shown to the usage meter (a logical tee: the meter reads the same bytes, it never
 * holds the stream up). Backpressure reaches the provider: a slow client pauses the upstream
 * socket. When the answer ends, however it ends, `onEnd` runs once (the settlement), after the
 * client's stream has ended: metering never delays a byte. `onEnd` must not throw.
 *
 * A stream (SSE) is written straight to the client's Node response when the server passes it
 * (`streamToClient`, relay/main.ts and the portal server): a long stream then costs its sockets'
 * buffers and a few listeners, where a web stream handed to @hono/node-server kept a promise for
 * every chunk until the stream's end (docs/performance.md, "Long streams"). Other answers, and
 * every answer of an in-process caller, are a web stream (`responseStream`).
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
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

/** Meters each chunk after handing the client its share of it: the chunk itself, or (dropping events) its kept whole events. */
function tap({ meter, streamed, drop }: Pick<ResponseStreamOptions, 'meter' | 'streamed' | 'drop'>) {
  const splitter = streamed ? new SseSplitter() : null
  return {
    pass(chunk: Buffer, emit: (out: Buffer) => void): void {
      if (!splitter) {
        emit(chunk)
        return meter.body(chunk)
      }
      if (!drop) {
        emit(chunk)
        for (const event of splitter.push(chunk)) meter.event(event.data)
        return
      }
      // A partial event is held back until it is whole.
      let out = ''
      for (const event of splitter.push(chunk)) {
        meter.event(event.data)
        if (!drop(event.data)) out += event.raw
      }
      if (out) emit(Buffer.from(out))
    },
    /** A last event without its blank line, held back while dropping. */
    rest(): Buffer | null {
      const rest = drop && splitter ? splitter.rest() : ''
      return rest ? Buffer.from(rest) : null
    },
  }
}

/**
 * Writes a streamed answer to the client's Node response: its head (`status`, `headers`), then
 * each chunk as it comes, pausing the provider while the response's buffer is full.
 */
export function streamToClient(
  options: Omit<ResponseStreamOptions, 'streamed'> & { outgoing: ServerResponse; status: number; headers: OutgoingHttpHeaders },
): void {
  const { upstream, outgoing, onEnd } = options
  const { body } = upstream
  const { pass, rest } = tap({ ...options, streamed: true })
  let ended: Promise<void> | null = null
  const end = (how: StreamEnd) => (ended ??= onEnd(how))
  const emit = (out: Buffer) => {
    if (!outgoing.write(out)) body.pause()
  }
  // The client left before the answer's end (or before it started: then nothing is read).
  const left = () => {
    if (outgoing.writableFinished) return
    void end('abandoned')
    upstream.abort()
  }
  if (outgoing.destroyed) return left()
  outgoing.on('close', left)
  outgoing.writeHead(options.status, options.headers)
  outgoing.flushHeaders()
  outgoing.on('drain', () => body.resume())
  body.on('data', (chunk: Buffer) => {
    if (!ended) pass(chunk, emit)
  })
  body.on('end', () => {
    outgoing.end(rest() ?? undefined)
    void end('completed')
  })
  // An error (reset, idle timeout) is followed by `close`; `close` without `end` is a cut, which
  // breaks the client's chunked stream off rather than ending it as if complete.
  body.on('error', () => {})
  body.on('close', () => {
    if (body.readableEnded) return
    void end('cut')
    outgoing.destroy()
  })
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
  const { pass, rest } = tap({ meter, streamed, drop })
  let ended: Promise<void> | null = null
  const end = (how: StreamEnd) => (ended ??= onEnd(how))

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const emit = (out: Buffer) => {
          controller.enqueue(out)
          whole?.push(out)
        }
        body.on('data', (chunk: Buffer) => {
          if (ended) return
          pass(chunk, emit)
          if ((controller.desiredSize ?? 1) <= 0) {
            body.pause()
            whole = null
            fill(null)
          }
        })
        // The client's stream ends first; the settlement follows without holding it up.
        body.on('end', () => {
          const last = rest()
          try {
            if (last) controller.enqueue(last)
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
