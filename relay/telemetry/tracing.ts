/**
 * Traces (docs/observability.md): with the standard `OTEL_EXPORTER_OTLP_ENDPOINT` set, a span per
 * relayed call and per portal request, exported over OTLP/HTTP. Unset, nothing of OpenTelemetry's
 * SDK is loaded (`startTracing` resolves null) and a call pays one null check.
 *
 * This module holds only the shapes the relay and the portal use; otlp-tracing.ts, imported on
 * demand, holds the SDK.
 */

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

let started: Promise<Tracing> | undefined

/** The process's tracing, made once; null unless `enabled` (`OTEL_EXPORTER_OTLP_ENDPOINT` is set). */
export function startTracing(enabled: boolean): Promise<Tracing | null> {
  if (!enabled) return Promise.resolve(null)
  started ??= import('./otlp-tracing.ts').then(({ otlpTracing }) => otlpTracing())
  return started
}
