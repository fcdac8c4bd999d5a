/** What the relay and the portal see of a trace (tracing.ts makes one; otlp-tracing.ts is OpenTelemetry's). */

/** Attributes as OpenTelemetry takes them (GenAI semantic conventions where they name the figure). */
export type SpanAttributes = Record<string, string | number | boolean>

export interface SpanHandle {
  /** Ends the span with these attributes; only the first call counts. */
  end(attributes: SpanAttributes, failed?: boolean): void
}

export interface Tracing {
  /** A span named `name`, started now (server kind: a request this process answers). */
  start(name: string, attributes: SpanAttributes): SpanHandle
  /** Exports what is buffered, then stops. */
  close(): Promise<void>
}
