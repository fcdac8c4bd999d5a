/**
 * The console's catalogue calls (docs/decisions/115-operator-console.md): thin handlers over the service functions
 * the CLI runs, each given the calling admin and address as the audit log's operator.
 */
import { adminCatalogEndpoints } from '../contract/admin-catalog.ts'
import { consoleOperator } from '../audit/audit-log.ts'
import { knownPublicUrl } from '../deployment/public-url.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { createClientAsOperator, listClientsForOperator, removeClientAsOperator, updateClientAsOperator } from '../oauth/operator-clients.ts'
import { readReferralRule, setReferralRuleAsOperator } from '../referral/rule.ts'
import { addResourceLinkAsOperator, listResourceLinks, removeResourceLinkAsOperator, updateResourceLinkAsOperator } from '../resources/service.ts'
import type { RelayServices } from '../services.ts'
import { createPackageAsOperator, listCatalogPackages, setPackageListingAsOperator, updatePackageAsOperator } from '../subscriptions/operator-packages.ts'
import { createTeamAsOperator, renewTeamAsOperator, teamForOperator } from '../teams/operator.ts'
import { listTeams } from '../teams/teams.ts'

export function catalogRoutes(services: RelayServices): Route[] {
  const { db, clock, config } = services
  const endpoints = adminCatalogEndpoints
  const link = (body: { title: string; url: string; description?: string; sort_order: number }) => ({ title: body.title, url: body.url, description: body.description, sortOrder: body.sort_order })
  const client = (body: { name: string; redirect_uris: string[]; first_party: boolean }) => ({ name: body.name, redirectUris: body.redirect_uris, firstParty: body.first_party })
  return [
    defineRoute(endpoints.catalogPackages, async ({ query }) => ({ items: await listCatalogPackages(db, query.listing) })),
    defineRoute(endpoints.createPackage, async ({ user, clientIp, body }) => createPackageAsOperator(db, consoleOperator(user, clientIp), body, clock.now())),
    defineRoute(endpoints.updatePackage, async ({ user, clientIp, params, body }) =>
      updatePackageAsOperator(db, consoleOperator(user, clientIp), { id: params.id, package: body, now: clock.now() }),
    ),
    defineRoute(endpoints.setPackageListing, async ({ user, clientIp, params, body }) =>
      setPackageListingAsOperator(db, consoleOperator(user, clientIp), { package: { id: params.id }, listing: body.listing, now: clock.now() }),
    ),

    defineRoute(endpoints.teams, async () => ({ items: await listTeams(db, clock.now()) })),
    defineRoute(endpoints.team, async ({ params }) => teamForOperator(db, params.id, clock.now(), await knownPublicUrl(db, config))),
    defineRoute(endpoints.createTeam, async ({ user, clientIp, body }) => {
      const team = await createTeamAsOperator(db, consoleOperator(user, clientIp), { name: body.name, packageCode: body.package_code, owner: body.owner, now: clock.now() })
      const detail = await teamForOperator(db, team.id, clock.now(), await knownPublicUrl(db, config))
      return { id: team.id, team_code: detail.team_code, invite_url: detail.invite_url }
    }),
    defineRoute(endpoints.renewTeam, async ({ user, clientIp, params, body }) => {
      const subscription = await renewTeamAsOperator(db, consoleOperator(user, clientIp), { teamId: params.id, packageCode: body.package_code, now: clock.now() })
      return { end_timestamp: subscription.end_timestamp }
    }),

    defineRoute(endpoints.resources, async () => listResourceLinks(db)),
    defineRoute(endpoints.addResource, async ({ user, clientIp, body }) => ({ id: (await addResourceLinkAsOperator(db, consoleOperator(user, clientIp), link(body), clock.now())).id })),
    defineRoute(endpoints.updateResource, async ({ user, clientIp, params, body }) => {
      await updateResourceLinkAsOperator(db, consoleOperator(user, clientIp), params.id, link(body), clock.now())
      return { id: params.id }
    }),
    defineRoute(endpoints.removeResource, async ({ user, clientIp, params }) => {
      await removeResourceLinkAsOperator(db, consoleOperator(user, clientIp), params.id, clock.now())
      return { id: params.id }
    }),

    defineRoute(endpoints.referralRule, async () => readReferralRule(db)),
    defineRoute(endpoints.setReferralRule, async ({ user, clientIp, body }) => {
      await setReferralRuleAsOperator(db, consoleOperator(user, clientIp), clock, body)
      return readReferralRule(db)
    }),

    defineRoute(endpoints.oauthClients, async () => ({ items: await listClientsForOperator(db) })),
    defineRoute(endpoints.createOAuthClient, async ({ user, clientIp, body }) => {
      const created = await createClientAsOperator(db, consoleOperator(user, clientIp), clock, client(body))
      return { client: created.client, client_secret: created.secret }
    }),
    defineRoute(endpoints.updateOAuthClient, async ({ user, clientIp, params, body }) =>
      updateClientAsOperator(db, consoleOperator(user, clientIp), { client: { id: params.id }, change: client(body), now: clock.now() }),
    ),
    defineRoute(endpoints.removeOAuthClient, async ({ user, clientIp, params }) => {
      await removeClientAsOperator(db, consoleOperator(user, clientIp), { client: { id: params.id }, now: clock.now() })
      return { id: params.id }
    }),
  ]
}
