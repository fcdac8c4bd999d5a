/**
 * The client's side of a relayed call: its request body, and a signal for its leaving. When the
 * server in front is @hono/node-server, it passes its Node request and response (RelayBindings):
 * reading those directly spares the hot path building a WHATWG Request with a web-stream body
 * for every call, which was a tenth of a millisecond of the relay's own time (bench/relay.ts).
 * Without them (an in-process caller such as the tests), the Request itself serves.
 */
import type { ServerResponse } from 'node:http'
import type { Context } from 'hono'
import type { RelayEnv } from '../http/relay-env.ts'
import type { CallInFlight } from './calls-in-flight.ts'

export interface ClientSide {
  body: AsyncIterable<Uint8Array> | null
  /** Declared size, if any. */
  contentLength: number
  /** Aborted when the client goes away before its answer is complete, or when the relay cuts the call (calls-in-flight.ts). */
  gone: AbortSignal
  /** The Node response, to write a stream to directly (response-stream.ts); null for an in-process caller. */
  outgoing: ServerResponse | null
}

export function clientSide(c: Context<RelayEnv>, call: CallInFlight): ClientSide {
  const contentLength = Number(c.req.header('content-length') ?? 0)
  const { incoming, outgoing } = c.env ?? {}
  // Node's web streams are async iterables; the DOM typings do not say so.
  if (!incoming || !outgoing) return { body: c.req.raw.body as AsyncIterable<Uint8Array> | null, contentLength, gone: AbortSignal.any([c.req.raw.signal, call.signal]), outgoing: null }
  // As @hono/node-server decides it: the connection closed before the response was finished.
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) call.leave()
  })
  return { body: incoming, contentLength, gone: call.signal, outgoing }
}
