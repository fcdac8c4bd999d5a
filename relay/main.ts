/**
 * The relay on its own (`npm run relay`): e.g. several instances in front of one PostgreSQL. With
 * WORKERS > 1 (the default on PostgreSQL: one per CPU) this process forks that many relays on
 * the same port (workers.ts, docs/decisions/076-the-hot-path.md).
 */
import { configOrExit, loadConfig } from './config.ts'
import { servedByNode, startRelay } from './index.ts'
import { keepRunningOnStrayErrors, serveWithBacklog, stopOnSignals } from './process-lifecycle.ts'
import { startTracing } from './telemetry/tracing.ts'
import { servesHere, workerCount } from './workers.ts'

async function main(): Promise<void> {
  const config = configOrExit(() => loadConfig(process.env, { relayAlone: true }))
  const relayConfig = config.relay
  if (!relayConfig) throw new Error('RELAY_URL names a relay elsewhere: `npm run relay` is that relay, so leave RELAY_URL unset here')
  if (!servesHere(workerCount(config), config)) return
  const relay = await startRelay(relayConfig)
  const server = serveWithBacklog(
    {
      fetch: servedByNode(relay),
      port: config.process.port ?? 3001,
    },
    (info) => console.log(`relay listening on http://localhost:${info.port} (API document at /api/openapi.json)`),
  )
  // Only once started: a failed start must end the process.
  keepRunningOnStrayErrors()
  stopOnSignals(server, {
    graceMs: config.process.shutdownGraceMs,
    finishCalls: (graceMs) => relay.finishCalls(graceMs),
    async close() {
      await relay.close()
      // Its last spans exported (telemetry/tracing.ts).
      await (await startTracing(relayConfig))?.close()
    },
  })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
