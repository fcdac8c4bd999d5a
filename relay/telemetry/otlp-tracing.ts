/**
 * OpenTelemetry's SDK with the OTLP/HTTP exporter, which reads the standard `OTEL_EXPORTER_OTLP_*`
 * variables itself (endpoint, headers, timeout). Spans go out in batches, off the calls' path.
 * Loaded only when tracing is on (tracing.ts).
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import type { Tracing } from './spans.ts'

/** Spans name the service by OTEL_SERVICE_NAME (relay/config.ts). */
export function otlpTracing(serviceName: string): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  })
  const tracer = provider.getTracer('relay-portal')
  return {
    start(name, attributes) {
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes })
      let ended = false
      return {
        end(more, failed = false) {
          if (ended) return
          ended = true
          span.setAttributes(more)
          if (failed) span.setStatus({ code: SpanStatusCode.ERROR })
          span.end()
        },
      }
    },
    close: () => provider.shutdown(),
  }
}
