/**
 * The relay on its own (`npm run relay`): e.g. several instances in front of one PostgreSQL. With
 * WORKERS > 1 (the default on PostgreSQL: one per CPU) this process forks that many relays on
 * the same port (workers.ts, docs/decisions/076-the-hot-path.md).
 */
import { serve } from '@hono/node-server'
import { z } from 'zod'
import { ConfigError, loadRelayConfig } from './config.ts'
import { servedByNode, startRelay } from './index.ts'
import { keepRunningOnStrayErrors, stopOnSignals } from './process-lifecycle.ts'
import { startTracing } from './telemetry/tracing.ts'
import { servesHere, workerCount } from './workers.ts'

const portSchema = z.coerce.number().int().min(1).max(65535)

async function main(): Promise<void> {
  const port = portSchema.safeParse(process.env.PORT ?? 3001)
  if (!port.success) throw new ConfigError([`PORT: ${port.error.issues[0]?.message}`])
  if (!servesHere(workerCount(process.env, true))) return
  const config = loadRelayConfig()
  const relay = await startRelay(config)
  const server = serve(
    {
      fetch: servedByNode(relay),
      port: port.data,
    },
    (info) => console.log(`relay listening on http://localhost:${info.port} (API document at /api/openapi.json)`),
  )
  // Only once started: a failed start must end the process.
  keepRunningOnStrayErrors()
  stopOnSignals(server, {
    graceMs: config.shutdownGraceMs,
    finishCalls: (graceMs) => relay.finishCalls(graceMs),
    async close() {
      await relay.close()
      // Its last spans exported (telemetry/tracing.ts).
      await (await startTracing(config.otlpEndpoint !== undefined))?.close()
    },
  })
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
})
