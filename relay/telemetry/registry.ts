/**
 * The process's Prometheus registry and `GET /metrics` (docs/observability.md). Nothing here is
 * loaded or counted unless `METRICS_TOKEN` is set: without it `/metrics` answers 404 and the relay
 * keeps no figures.
 *
 * With `WORKERS` > 1 a scrape reaches one worker, which asks the primary for every worker's
 * figures (prom-client's AggregatorRegistry: counters and gauges summed, histograms merged), so
 * one scrape covers the whole process group.
 */
import cluster from 'node:cluster'
import { timingSafeEqual } from 'node:crypto'
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client'

let registry: Registry | undefined

/** One registry per process, with Node's own families (CPU, memory, event-loop lag, GC). */
export function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry()
    collectDefaultMetrics({ register: registry })
    // Gauges named like counters, which promtool's lint refuses (and rules would misread as rates).
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name)
    if (cluster.isWorker) {
      // Answers the primary's requests for this worker's figures.
      new AggregatorRegistry()
      AggregatorRegistry.setRegistries(registry)
    }
  }
  return registry
}

const scrapeRequest = 'relay-metrics:scrape'
const scrapeAnswer = 'relay-metrics:scraped'

interface ScrapeMessage {
  type: typeof scrapeRequest | typeof scrapeAnswer
  id: number
  text?: string
  error?: string
}

function isScrapeMessage(message: unknown): message is ScrapeMessage {
  return typeof message === 'object' && message !== null && ((message as ScrapeMessage).type === scrapeRequest || (message as ScrapeMessage).type === scrapeAnswer)
}

/** In a cluster's primary: answers a worker's scrape with every worker's figures. */
export function aggregateWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: unknown) => {
    if (!isScrapeMessage(message) || message.type !== scrapeRequest) return
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: scrapeAnswer, id: message.id, text }),
      (error: unknown) => worker.send({ type: scrapeAnswer, id: message.id, error: String(error) }),
    )
  })
}

let nextScrape = 0
const pending = new Map<number, (answer: ScrapeMessage) => void>()

function askPrimary(): Promise<string> {
  if (pending.size === 0) process.on('message', onAnswer)
  const id = ++nextScrape
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle({ type: scrapeAnswer, id, error: 'the primary did not answer within 5 s' }), 5000)
    const settle = (answer: ScrapeMessage) => {
      clearTimeout(timer)
      pending.delete(id)
      if (pending.size === 0) process.off('message', onAnswer)
      if (answer.error !== undefined) reject(new Error(answer.error))
      else resolve(answer.text ?? '')
    }
    pending.set(id, settle)
    process.send!({ type: scrapeRequest, id })
  })
}

function onAnswer(message: unknown): void {
  if (isScrapeMessage(message) && message.type === scrapeAnswer) pending.get(message.id)?.(message)
}

function sameToken(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)]
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * `GET /metrics`: 404 while `token` is unset (the endpoint does not exist), 401 without
 * `Authorization: Bearer <token>`, else the exposition of this process (or its cluster).
 */
export async function metricsResponse(request: Request, token: string | undefined): Promise<Response> {
  if (!token) return new Response('Not found', { status: 404 })
  const given = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
  if (!sameToken(given, token)) return new Response('Unauthorized', { status: 401, headers: { 'www-authenticate': 'Bearer realm="metrics"' } })
  const own = processRegistry()
  const text = cluster.isWorker ? await askPrimary() : await own.metrics()
  return new Response(text, { headers: { 'content-type': own.contentType, 'cache-control': 'no-store' } })
}
