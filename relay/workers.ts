/**
 * Several serving processes on one port (docs/decisions/076-the-hot-path.md): `WORKERS` processes forked with
 * Node's cluster, which hands each new connection to one of them, so a relay uses every CPU of
 * its machine. Default: the number of CPUs on PostgreSQL; 1 on SQLite (one writer at a time for
 * the whole file: more processes there only wait on each other's lock); `WORKERS=1` keeps a single
 * process.
 *
 * The workers are relays sharing one database, as separate relays are, and are told apart as
 * such: each gets its own `RELAY_INSTANCE` (`<name>/<n>`; a worker that restarts gives back the
 * holds its previous run left open, docs/decisions/074-settlements-and-holds.md) and its own snowflake worker number
 * (`RELAY_WORKER_ID` + n, or a random base + n). Only worker 0 runs the periodic sweeps
 * (`RELAY_SWEEPS`); every worker settles its own calls and keeps its own circuits (per process,
 * docs/decisions/073-upstream-calls.md). Worker 0 starts first and the others once it listens, so the migrations
 * and development secrets are made once. A worker that dies is started again; SIGTERM or SIGINT
 * to the primary stops every worker, each draining its calls as a single process does.
 */
import cluster, { type Worker } from 'node:cluster'
import { randomInt } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type { Config } from './config.ts'
import { isPostgresUrl } from './db/open-database.ts'
import { aggregateWorkerMetrics } from './telemetry/registry.ts'

/** How many serving processes the configuration asks for (WORKERS), or the default for its database. */
export function workerCount(config: Pick<Config, 'process' | 'relay'>): number {
  if (config.process.workers) return config.process.workers
  return config.relay && !isPostgresUrl(config.relay.databaseUrl) ? 1 : availableParallelism()
}

/**
 * In the primary of a cluster of `count` > 1: forks and keeps the workers, and resolves false (this
 * process serves nothing). In a worker, or with one process: resolves true, and the caller serves.
 */
export function servesHere(count: number, config: Pick<Config, 'relay' | 'portal'>): boolean {
  if (count === 1 || cluster.isWorker) return true
  const instance = config.relay?.instance ?? 'portal'
  const pinned = config.relay?.workerId
  const firstId = pinned ?? randomInt(1024)
  if (pinned !== undefined && firstId + count - 1 > 1023) throw new Error(`RELAY_WORKER_ID: ${count} workers need ${firstId}–${firstId + count - 1}, past 1023`)
  let stopping = false
  let running = 0
  const fork = (n: number): Worker => {
    const worker = cluster.fork({
      RELAY_INSTANCE: `${instance}/${n}`,
      RELAY_WORKER_ID: String((firstId + n) % 1024),
      RELAY_SWEEPS: n === 0 ? 'true' : 'false',
    })
    let listened = false
    running += 1
    worker.once('listening', () => (listened = true))
    worker.on('exit', (code, signal) => {
      running -= 1
      if (stopping) {
        if (running === 0) process.exit()
      } else if (!listened) {
        // A failed start (a bad environment, a database out of reach) would fail again: give up, as one process does.
        stop('SIGTERM', code ?? 1)
      } else {
        console.error(`worker ${n} exited (${signal ?? code}); starting it again`)
        fork(n)
      }
    })
    return worker
  }
  const stop = (signal: NodeJS.Signals, exitCode = 0) => {
    if (stopping) return
    stopping = true
    process.exitCode = exitCode
    if (running === 0) process.exit()
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
  }
  // One scrape of any worker covers them all (telemetry/registry.ts).
  if (config.portal.metricsToken) aggregateWorkerMetrics()
  fork(0).once('listening', () => {
    for (let n = 1; n < count && !stopping; n++) fork(n)
  })
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  return false
}
