/**
 * Traces (docs/observability.md): with the standard `OTEL_EXPORTER_OTLP_ENDPOINT` set, a span per
 * relayed call and per portal request, exported over OTLP/HTTP. Unset, nothing of OpenTelemetry's
 * SDK is loaded (`startTracing` resolves null) and a call pays one null check.
 *
 * The shapes the relay and the portal use are in spans.ts; otlp-tracing.ts, imported on demand,
 * holds the SDK.
 */
import type { Tracing } from './spans.ts'

let started: Promise<Tracing> | undefined

/** The process's tracing, made once; null unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set. */
export function startTracing(config: { otlpEndpoint?: string; otelServiceName: string }): Promise<Tracing | null> {
  if (config.otlpEndpoint === undefined) return Promise.resolve(null)
  started ??= import('./otlp-tracing.ts').then(({ otlpTracing }) => otlpTracing(config.otelServiceName))
  return started
}
