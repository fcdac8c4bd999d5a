/**
 * The console's operations calls (relay/contract/admin-ops.ts): thin handlers over the service
 * functions the CLI runs, each given the calling admin and address as the audit log's operator.
 */
import { ProviderKeyBox } from '../proxy/provider-keys.ts'
import { reconciliation } from './reconciliation.ts'
import { listPricesForConsole, setListPricesAsOperator } from '../public-stats/list-prices.ts'
import { adminOpsEndpoints } from '../contract/admin-ops.ts'
import { consoleOperator } from '../audit/audit-log.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { listPrices, removePriceAsOperator, removePricesAsOperator, setPriceAsOperator } from '../points/price-operator.ts'
import { addProviderAsOperator, removeProviderAsOperator, setProviderEnabledAsOperator, setProvidersEnabledAsOperator, testProviderAsOperator, updateProviderAsOperator } from '../proxy/provider-operator.ts'
import { typicalCall } from '../contract/admin-ops.ts'
import type { RelayServices } from '../services.ts'
import { assignAsOperator } from '../tickets/operator.ts'
import { adminProviders, operatorOverview, overviewSeries } from './overview.ts'

export function adminOpsRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  /** A provider as the list shows it, after a change. */
  const providerNow = async (id: string) => (await adminProviders(services)).find((provider) => provider.id === id)!
  return [
    defineRoute(adminOpsEndpoints.overview, async ({ query }) => operatorOverview(services, query.period)),
    defineRoute(adminOpsEndpoints.overviewSeries, async ({ query }) => overviewSeries(services, query)),
    defineRoute(adminOpsEndpoints.reconciliation, async ({ query }) => reconciliation(db, new ProviderKeyBox(services.config.jwtSecrets), query.month)),
    defineRoute(adminOpsEndpoints.listPrices, async () => listPricesForConsole(db)),
    defineRoute(adminOpsEndpoints.setListPrices, async ({ user, clientIp, body }) => setListPricesAsOperator(db, consoleOperator(user, clientIp), clock, body)),

    defineRoute(adminOpsEndpoints.providers, async ({ query }) => ({
      items: (await adminProviders(services)).filter(
        (provider) => (!query.kind || provider.kind === query.kind) && (!query.state || provider.enabled === (query.state === 'enabled')),
      ),
    })),
    defineRoute(adminOpsEndpoints.addProvider, async ({ user, clientIp, body }) => {
      const added = await addProviderAsOperator(services, consoleOperator(user, clientIp), {
        kind: body.kind,
        baseUrl: body.base_url,
        key: body.key,
        models: body.models,
        modelMap: body.model_map,
        priority: body.priority,
      })
      return providerNow(added.id)
    }),
    // Before `/providers/{id}`, which would take `bulk-enabled` for an id.
    defineRoute(adminOpsEndpoints.setProvidersEnabled, async ({ user, clientIp, body }) =>
      setProvidersEnabledAsOperator(services, consoleOperator(user, clientIp), { ids: body.ids, enabled: body.enabled }),
    ),
    defineRoute(adminOpsEndpoints.updateProvider, async ({ user, clientIp, params, body }) => {
      await updateProviderAsOperator(services, consoleOperator(user, clientIp), { id: params.id, models: body.models, modelMap: body.model_map, priority: body.priority })
      return providerNow(params.id)
    }),
    defineRoute(adminOpsEndpoints.setProviderEnabled, async ({ user, clientIp, params, body }) => {
      await setProviderEnabledAsOperator(services, consoleOperator(user, clientIp), { id: params.id, enabled: body.enabled })
      return providerNow(params.id)
    }),
    defineRoute(adminOpsEndpoints.removeProvider, async ({ user, clientIp, params }) => {
      await removeProviderAsOperator(services, consoleOperator(user, clientIp), params.id)
      return { id: params.id }
    }),
    defineRoute(adminOpsEndpoints.testProvider, async ({ user, clientIp, params, body }) =>
      testProviderAsOperator(services, consoleOperator(user, clientIp), { id: params.id, model: body.model }),
    ),

    defineRoute(adminOpsEndpoints.prices, async ({ query }) => {
      const q = query.q?.toLowerCase()
      return { items: (await listPrices(db)).filter((price) => !q || price.model.toLowerCase().includes(q)), typical: typicalCall }
    }),
    defineRoute(adminOpsEndpoints.setPrice, async ({ user, clientIp, body }) => setPriceAsOperator(db, consoleOperator(user, clientIp), body, clock.now())),
    defineRoute(adminOpsEndpoints.removePrice, async ({ user, clientIp, body }) => {
      await removePriceAsOperator(db, consoleOperator(user, clientIp), body.model, clock.now())
      return { model: body.model }
    }),
    defineRoute(adminOpsEndpoints.removePrices, async ({ user, clientIp, body }) => removePricesAsOperator(db, consoleOperator(user, clientIp), body.models, clock.now())),

    defineRoute(adminOpsEndpoints.operators, async () => ({
      items: await db.selectFrom('users').select(['id', 'username']).where('user_type', '=', 'admin').where('status', '=', 'active').orderBy('username').execute(),
    })),
    defineRoute(adminOpsEndpoints.assignTicket, async ({ user, clientIp, params, body }) => {
      const assigned = await assignAsOperator(db, consoleOperator(user, clientIp), { ticket: params.id, to: body.assignee_id === null ? null : { id: body.assignee_id }, now: clock.now() })
      return { assignee_id: assigned.assignee_id, assignee_name: assigned.assignee_name }
    }),
  ]
}
