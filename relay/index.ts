/**
 * The relay's entry for whoever runs it: the standalone server (main.ts), the portal server that
 * embeds it, and the tests.
 *
 * Embedding in-process (no socket): call `relay.fetch(request, { clientIp })` where `clientIp`
 * is the address of the peer the embedding server received the request from (its socket
 * address, or its own trusted-proxy result). The relay uses it for per-IP rate limits; with
 * `trustProxy` it still prefers the last X-Forwarded-For entry of the request. Only code in the
 * same process can pass it: nothing a remote client sends can set it.
 */
import { keepOperatorStatsFresh } from './admin/overview.ts'
import type { Http2Bindings, HttpBindings } from '@hono/node-server'
import { createRelayApp } from './app.ts'
import type { RelayConfig } from './config.ts'
import type { RelayBindings } from './http/relay-env.ts'
import type { Database } from './db/open-database.ts'
import { recordPublicUrl } from './deployment/public-url.ts'
import { openRuntime, type RuntimeOptions } from './runtime.ts'
import { releaseOwnHolds, sweepStaleHolds } from './proxy/stale-holds.ts'
import { sweepOldCalls } from './usage/retention.ts'
import { keepPublicStatsFresh } from './public-stats/aggregate.ts'
import { startMailSender } from './notifications/sender.ts'
import { checkAlerts, startAlertMonitor } from './alerts/monitor.ts'
import { sendDueAlerts } from './alerts/deliveries.ts'
import { createServices } from './create-services.ts'
import { startTracing } from './telemetry/tracing.ts'

/** `clientIp`: the peer's address for an in-process call (see above); `incoming`/`outgoing`: see RelayBindings. */
export type RelayFetchOptions = RelayBindings

export interface Relay {
  fetch(request: Request, options?: RelayFetchOptions): Promise<Response>
  db: Database
  /** Writes the settlements waiting for their group now: what a caller (a test) waits on before reading the call log. */
  drainSettlements(): Promise<void>
  /** Looks for alert incidents now and delivers every alert message due: what a test waits on before counting what arrived. */
  drainAlerts(): Promise<void>
  /**
   * Stops taking calls (the health call and new /v1 calls answer 503), lets those in flight go on
   * for up to `graceMs`, then cuts the rest, each charged what it delivered; resolves once every
   * one has ended and its settlement is queued (proxy/calls-in-flight.ts).
   */
  finishCalls(graceMs: number): Promise<void>
  /** Stops the stale-hold sweeps, the public figures' refresh, the mail sender and the alert checks, writes the settlements still waiting, withdraws its circuit reports, closes the database and the mail transport. */
  close(): Promise<void>
}

export type StartRelayOptions = Omit<RuntimeOptions, 'server'>

export async function startRelay(config: RelayConfig, options: StartRelayOptions = {}): Promise<Relay> {
  const runtime = await openRuntime(config, { ...options, server: true })
  const services = createServices({ ...runtime.deps, tracing: await startTracing(config) })
  // For the operator CLI, which prints links on it (deployment/public-url.ts).
  await recordPublicUrl(services.db, config, services.clock.now())
  const app = createRelayApp(services)
  // Mail and alerts go out from every process: each claims its messages in one UPDATE (docs/decisions/125-mail-and-announcements.md),
  // and each watches its own settlements and database (alerts/monitor.ts).
  const sweepers = config.sweeps
    ? [sweepStaleHolds(services), sweepOldCalls(services), keepPublicStatsFresh(services), keepOperatorStatsFresh(services), startMailSender(services), startAlertMonitor(services)]
    : [releaseOwnHolds(services), startMailSender(services), startAlertMonitor(services)]
  return {
    fetch: async (request, options = {}) => app.fetch(request, options),
    db: runtime.deps.db,
    drainSettlements: () => services.settlements.drain(),
    async drainAlerts() {
      await checkAlerts(services)
      await sendDueAlerts(services)
    },
    async finishCalls(graceMs) {
      const { calls, logger } = services
      calls.drain()
      let timer: NodeJS.Timeout | undefined
      const inTime = await Promise.race([calls.ended().then(() => true), new Promise<false>((resolve) => (timer = setTimeout(resolve, graceMs, false)))])
      clearTimeout(timer)
      if (!inTime) logger.warn('calls cut at the end of the shutdown grace, each charged what it delivered', { cut: await calls.cut(), graceMs })
    },
    async close() {
      await Promise.all(sweepers.map((sweeper) => sweeper.stop()))
      await services.settlements.drain()
      await services.circuits.close()
      await runtime.close()
    },
  }
}

/**
 * The relay as @hono/node-server's `fetch`, for a server that is only the relay (main.ts, the
 * tests): the Node request and response ride along as RelayBindings. HTTP/1 bindings: such a
 * server is given no HTTP/2 options.
 */
export function servedByNode(relay: Relay): (request: Request, env: HttpBindings | Http2Bindings) => Promise<Response> {
  return (request, env) => relay.fetch(request, env as HttpBindings)
}

export { createRelayApp } from './app.ts'
export { loadRelayConfig, relayConfigSchema, ConfigError, type RelayConfig, type RelayConfigInput } from './config.ts'
export type { Clock } from './clock.ts'
export type { Logger } from './logger.ts'
