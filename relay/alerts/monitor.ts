/**
 * What the relays watch, and the incidents they open and resolve (docs/observability.md "Webhook
 * alerts"). Every `alertCheckMs` each relay process lists what is wrong now:
 *
 * - a provider's circuit open (or half-open: not healed yet) on any relay, from the circuits the
 *   relays report (proxy/provider-circuits.ts);
 * - priced models whose every enabled provider has its circuit open (one incident for all of them);
 * - a provider whose calls recorded over the last minutes failed above the threshold;
 * - this process's settlements waiting above the threshold;
 * - the points all accounts hold above the threshold (when one is set);
 * - this process unable to reach the database.
 *
 * An incident is one row of `alert_incidents`, open while its `open_key` is set: the unique index
 * lets exactly one relay open it, and the guarded UPDATE that resolves it lets exactly one relay
 * resolve it, each queueing its messages in the same transaction. So a person gets one message
 * when it starts and one when it ends, never a repeat while it lasts. What a process sees of
 * itself (settlements, the database) is keyed by its instance, and only that instance resolves it.
 *
 * The database being down cannot be queued in the database: the process posts that message
 * straight to the webhooks it read last, trying again each check until each took it, and once
 * the database answers records the incident, those messages as sent (or due, for a webhook that
 * never took it) and the recovery as due.
 */
import { sql } from 'kysely'
import type { AlertEvent } from '../contract/alerts.ts'
import { lastIdAt, newId } from '../db/ids.ts'
import type { AlertWebhooksTable } from '../db/schema.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { periodicSweep } from '../periodic-sweep.ts'
import { isModelPattern, listModelCosts, patternRegExp } from '../points/model-costs.ts'
import { reportedCircuits } from '../proxy/provider-circuits.ts'
import { providerLabel } from '../proxy/providers.ts'
import type { RelayServices } from '../services.ts'
import { alertRequest, queueDelivery, queueIncidentMessages } from './deliveries.ts'
import { postWebhook } from './formats.ts'
import type { AlertDetails } from './texts.ts'
import { activeWebhooks } from './webhooks.ts'

/** Something wrong now: `key` names it among incidents (`<event>:<what>`). */
export interface Condition<E extends AlertEvent = AlertEvent> {
  event: E
  key: string
  subject: string
  details: AlertDetails[E]
}

/** Events about one process, which only that process may resolve. */
const ownEvents = new Set<AlertEvent>(['settlements_lagging', 'database_unreachable'])

type Services = Pick<RelayServices, 'db' | 'clock' | 'config' | 'logger' | 'settlements'>

/** What is wrong now across the relays (from the database) and in this process. */
export async function currentConditions(services: Services): Promise<Condition[]> {
  const { db, clock, config, settlements } = services
  const now = clock.now()
  const conditions: Condition[] = []
  const providers = await db.selectFrom('proxy_providers').select(['id', 'kind', 'base_url', 'models']).where('disabled_timestamp', 'is', null).execute()
  const circuits = await reportedCircuits(db, now)
  const label = new Map(providers.map((p) => [p.id, providerLabel(p)]))

  for (const [id] of circuits) {
    const provider = label.get(id)
    if (provider) conditions.push({ event: 'circuit_open', key: `circuit_open:${id}`, subject: provider, details: { provider } })
  }

  // One incident for every model left without a healthy provider: a provider serving many models
  // going down is one message, not one per model.
  const serving = providers.map((p) => ({ id: p.id, patterns: (JSON.parse(p.models) as string[]).map(patternRegExp) }))
  const unserved = (await listModelCosts(db))
    .map(({ model }) => model)
    .filter((model) => {
      if (isModelPattern(model)) return false
      const servers = serving.filter((p) => p.patterns.some((pattern) => pattern.test(model)))
      return servers.length > 0 && servers.every((p) => circuits.has(p.id))
    })
  if (unserved.length > 0) conditions.push({ event: 'model_unserved', key: 'model_unserved', subject: unserved.length === 1 ? unserved[0]! : `${unserved[0]} +${unserved.length - 1}`, details: { models: unserved } })

  const minutes = config.alertErrorWindowMinutes
  // Ids are minted on wall time (db/ids.ts): the window is read by the primary key.
  const recent = await db
    .selectFrom('proxy_calls')
    .select(['provider_id', (eb) => eb.fn.countAll<number | string>().as('calls'), sql<number | string>`sum(case when outcome = 'failed' then 1 else 0 end)`.as('failed')])
    .where('id', '>', lastIdAt(Date.now() - minutes * 60_000))
    .where('provider_id', 'is not', null)
    .groupBy('provider_id')
    .execute()
  for (const row of recent) {
    const [calls, failed] = [Number(row.calls), Number(row.failed)]
    const provider = label.get(row.provider_id!)
    if (!provider || calls < config.alertErrorMinCalls || failed * 100 < calls * config.alertErrorRatePercent) continue
    conditions.push({ event: 'provider_errors', key: `provider_errors:${row.provider_id}`, subject: provider, details: { provider, failed, calls, minutes, threshold_percent: config.alertErrorRatePercent } })
  }

  if (settlements.waiting >= config.alertSettlementBacklog) {
    const details = { instance: config.instance, waiting: settlements.waiting, threshold: config.alertSettlementBacklog }
    conditions.push({ event: 'settlements_lagging', key: `settlements_lagging:${config.instance}`, subject: config.instance, details })
  }

  if (config.alertPointsLiability !== undefined) {
    const held = await db.selectFrom('points_accounts').select(sql<number | string | null>`sum(balance)`.as('points')).executeTakeFirstOrThrow()
    const points = Number(held.points ?? 0)
    if (points > config.alertPointsLiability) conditions.push({ event: 'points_liability', key: 'points_liability', subject: String(points), details: { points, threshold: config.alertPointsLiability } })
  }
  return conditions
}

/** Opens an incident for each condition without one, resolves each open incident whose condition is gone. */
export async function reconcileIncidents(services: Pick<Services, 'db' | 'clock' | 'config'>, conditions: readonly Condition[]): Promise<void> {
  const { db, clock, config } = services
  const now = clock.now()
  const open = await db.selectFrom('alert_incidents').selectAll().where('open_key', 'is not', null).execute()
  const openKeys = new Set(open.map((incident) => incident.open_key))
  for (const condition of conditions) {
    if (openKeys.has(condition.key)) continue
    await db.transaction().execute(async (trx) => {
      const incident = { id: newId(), event: condition.event, subject: condition.subject.slice(0, 200), open_key: condition.key, details: JSON.stringify(condition.details), opened_timestamp: now, resolved_timestamp: null }
      const inserted = await trx.insertInto('alert_incidents').values(incident).onConflict((oc) => oc.column('open_key').doNothing()).executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) await queueIncidentMessages(trx, incident, 'firing', now)
    })
  }
  const firing = new Set(conditions.map((condition) => condition.key))
  for (const incident of open) {
    if (firing.has(incident.open_key!)) continue
    if (ownEvents.has(incident.event) && !incident.open_key!.endsWith(`:${config.instance}`)) continue
    await db.transaction().execute(async (trx) => {
      const resolved = await trx.updateTable('alert_incidents').set({ open_key: null, resolved_timestamp: now }).where('id', '=', incident.id).where('open_key', '=', incident.open_key).executeTakeFirst()
      if (resolved.numUpdatedRows === 1n) await queueIncidentMessages(trx, incident, 'resolved', now)
    })
  }
}

/** This process's view of a database outage: started, and which webhooks have taken its message. */
interface Outage {
  id: string
  since: number
  error: string
  delivered: Map<string, number>
}

/** Each relay process's watch: incidents every `alertCheckMs`, and an outage of the database told at once. */
export function startAlertMonitor(services: RelayServices): { stop(): Promise<void> } {
  let webhooks: AlertWebhooksTable[] = []
  let outage: Outage | null = null
  const { config, logger } = services

  const tellOutage = async (current: Outage) => {
    const details: AlertDetails['database_unreachable'] = { instance: config.instance, error: current.error }
    for (const webhook of webhooks) {
      if (current.delivered.has(webhook.id)) continue
      const alert = { id: `${current.id}:${webhook.id}`, event: 'database_unreachable' as const, phase: 'firing' as const, incidentId: current.id, subject: config.instance, details, opened: current.since, resolved: null }
      try {
        await postWebhook(webhook.kind, alertRequest(services, webhook, alert, services.clock.now()))
        current.delivered.set(webhook.id, services.clock.now())
      } catch (error) {
        logger.warn('webhook delivery failed', { webhook: webhook.id, event: 'database_unreachable', error: String(error).slice(0, 500) })
      }
    }
  }

  /** The database answers again: the outage goes on record, with its messages. */
  const recordOutage = async (ended: Outage) => {
    const now = services.clock.now()
    const details: AlertDetails['database_unreachable'] = { instance: config.instance, error: ended.error }
    const incident = { id: ended.id, event: 'database_unreachable' as const, subject: config.instance, open_key: null, details: JSON.stringify(details), opened_timestamp: ended.since, resolved_timestamp: now }
    await services.db.transaction().execute(async (trx) => {
      await trx.insertInto('alert_incidents').values(incident).execute()
      for (const webhook of webhooks) {
        const sentAt = ended.delivered.get(webhook.id)
        const firing = { webhookId: webhook.id, incidentId: ended.id, event: incident.event, phase: 'firing' as const, subject: incident.subject, dedupeKey: `${ended.id}:firing:${webhook.id}`, details, now }
        await queueDelivery(trx, sentAt === undefined ? firing : { ...firing, sentAt })
      }
      await queueIncidentMessages(trx, incident, 'resolved', now)
    })
  }

  return periodicSweep(logger, 'alert check', config.alertCheckMs, async () => {
    try {
      webhooks = await activeWebhooks(services.db)
      if (outage) {
        await recordOutage(outage)
        logger.info('database reachable again', { since: new Date(outage.since).toISOString() })
        outage = null
      }
      await checkAlerts(services)
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      outage ??= { id: newId(), since: services.clock.now(), error: String(error).slice(0, 300), delivered: new Map() }
      await tellOutage(outage)
    }
  })
}

/** For tests and `Relay.drainAlerts`: one check now. */
export async function checkAlerts(services: Services): Promise<void> {
  await reconcileIncidents(services, await currentConditions(services))
}
