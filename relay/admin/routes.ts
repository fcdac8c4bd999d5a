/**
 * The operator console's calls (docs/decisions/115-operator-console.md): thin handlers over the same service
 * functions the CLI runs, each given the calling admin and address as the audit log's operator.
 */
import { adminEndpoints } from '../contract/admin.ts'
import { createAnnouncement, listAnnouncements, removeAnnouncement } from '../announcements/service.ts'
import { addIncident, listIncidents, resolveIncident, updateIncident } from '../public-stats/incidents.ts'
import { consoleOperator, listAudit } from '../audit/audit-log.ts'
import { defineRoute, type Route } from '../http/route.ts'
import { setKeysEnabledAsOperator } from '../keys/operator.ts'
import { approvePointsReset, denyPointsReset } from '../points/reset.ts'
import type { RelayServices } from '../services.ts'
import { generateRedeemCodes, listRedeemCodes, revokeRedeemCode, revokeRedeemCodes } from '../subscriptions/operator-codes.ts'
import { listPackages, packageName } from '../subscriptions/packages.ts'
import { replyAsOperator, setStatusAsOperator, setTagsAsOperator, ticketForOperator } from '../tickets/operator.ts'
import { listAllTickets } from '../tickets/service.ts'
import { adjustPoints, searchUsers, setUsersStatus, setUserStatus, setUserType, userForOperator } from '../users/operator.ts'
import { adminCallDetail, adminCalls, adminCallsCsv } from './calls.ts'
import { catalogRoutes } from './catalog-routes.ts'
import { adminUserRoutes } from './user-routes.ts'

export function adminRoutes(services: RelayServices): Route[] {
  const { db, clock } = services
  return [
    defineRoute(adminEndpoints.audit, async ({ query }) => listAudit(db, query)),

    defineRoute(adminEndpoints.tickets, async ({ query, lang }) => listAllTickets(db, query, lang)),
    defineRoute(adminEndpoints.ticket, async ({ params, lang }) => ticketForOperator(db, params.id, lang)),
    defineRoute(adminEndpoints.replyTicket, async ({ user, clientIp, params, body, lang }) => {
      await replyAsOperator(db, consoleOperator(user, clientIp), { ticket: params.id, content: body.content, status: body.status, now: clock.now() })
      return ticketForOperator(db, params.id, lang)
    }),
    defineRoute(adminEndpoints.setTicketStatus, async ({ user, clientIp, params, body, lang }) => {
      await setStatusAsOperator(db, consoleOperator(user, clientIp), { ticket: params.id, to: body.status, now: clock.now() })
      return ticketForOperator(db, params.id, lang)
    }),
    defineRoute(adminEndpoints.setTicketTags, async ({ user, clientIp, params, body, lang }) => {
      await setTagsAsOperator(db, consoleOperator(user, clientIp), { ticket: params.id, tags: body, now: clock.now() })
      return ticketForOperator(db, params.id, lang)
    }),
    defineRoute(adminEndpoints.approveReset, async ({ user, clientIp, params }) => {
      const { amount } = await approvePointsReset(db, consoleOperator(user, clientIp), { ticket: params.id, now: clock.now() })
      return { points_added: amount }
    }),
    defineRoute(adminEndpoints.denyReset, async ({ user, clientIp, params, body, lang }) => {
      await denyPointsReset(db, consoleOperator(user, clientIp), { ticket: params.id, content: body.content, now: clock.now() })
      return ticketForOperator(db, params.id, lang)
    }),

    defineRoute(adminEndpoints.users, async ({ query }) => searchUsers(db, query)),
    defineRoute(adminEndpoints.user, async ({ params, lang }) => userForOperator(db, params.id, clock.now(), lang, services.config.staleHoldMinutes)),
    defineRoute(adminEndpoints.setUserType, async ({ user, clientIp, params, body }) =>
      setUserType(db, consoleOperator(user, clientIp), { user: { id: params.id }, type: body.user_type, now: clock.now() }),
    ),
    defineRoute(adminEndpoints.setUserStatus, async ({ user, clientIp, params, body }) =>
      setUserStatus(db, consoleOperator(user, clientIp), { user: { id: params.id }, status: body.status, now: clock.now() }),
    ),
    defineRoute(adminEndpoints.setUsersStatus, async ({ user, clientIp, body }) =>
      setUsersStatus(db, consoleOperator(user, clientIp), { userIds: body.user_ids, status: body.status, now: clock.now() }),
    ),
    defineRoute(adminEndpoints.setUserKeys, async ({ user, clientIp, params, body }) =>
      setKeysEnabledAsOperator(db, consoleOperator(user, clientIp), { userId: params.id, keyIds: body.key_ids, enabled: body.enabled, now: clock.now() }),
    ),
    defineRoute(adminEndpoints.adjustPoints, async ({ user, clientIp, params, body }) => {
      const { balance } = await adjustPoints(services, consoleOperator(user, clientIp), { user: { id: params.id }, ...body })
      return { balance }
    }),

    defineRoute(adminEndpoints.packages, async ({ lang }) => ({
      // Codes are printed for personal plans and top-ups; a team is made with its own code.
      items: (await listPackages(db))
        .filter((pkg) => pkg.kind !== 'team')
        .map((pkg) => ({ code: pkg.code, name: packageName(pkg, lang), kind: pkg.kind })),
    })),
    defineRoute(adminEndpoints.redeemCodes, async ({ query, lang }) => listRedeemCodes(db, query, clock.now(), lang)),
    defineRoute(adminEndpoints.generateCodes, async ({ user, clientIp, body }) => {
      const { batchId, codes } = await generateRedeemCodes(db, consoleOperator(user, clientIp), {
        packageCode: body.package_code,
        count: body.count,
        expiresDays: body.expires_days,
        now: clock.now(),
      })
      return { batch_id: batchId, codes }
    }),
    defineRoute(adminEndpoints.revokeCode, async ({ user, clientIp, params }) => {
      await revokeRedeemCode(db, consoleOperator(user, clientIp), { id: params.id, now: clock.now() })
      return { id: params.id }
    }),
    defineRoute(adminEndpoints.revokeCodes, async ({ user, clientIp, body }) => revokeRedeemCodes(db, consoleOperator(user, clientIp), { ids: body.ids, now: clock.now() })),

    defineRoute(adminEndpoints.announcements, async () => ({ items: await listAnnouncements(db, clock.now()) })),
    defineRoute(adminEndpoints.createAnnouncement, async ({ user, clientIp, body }) => createAnnouncement(db, consoleOperator(user, clientIp), body, clock.now())),
    defineRoute(adminEndpoints.removeAnnouncement, async ({ user, clientIp, params }) => {
      await removeAnnouncement(db, consoleOperator(user, clientIp), params.id, clock.now())
      return { id: params.id }
    }),
    defineRoute(adminEndpoints.incidents, async () => ({ items: await listIncidents(db) })),
    defineRoute(adminEndpoints.createIncident, async ({ user, clientIp, body }) => addIncident(db, consoleOperator(user, clientIp), clock.now(), body)),
    defineRoute(adminEndpoints.updateIncident, async ({ user, clientIp, params, body }) => updateIncident(db, consoleOperator(user, clientIp), params.id, clock.now(), body)),
    defineRoute(adminEndpoints.resolveIncident, async ({ user, clientIp, params }) => resolveIncident(db, consoleOperator(user, clientIp), params.id, clock.now())),
    ...catalogRoutes(services),
    ...adminUserRoutes(services),

    defineRoute(adminEndpoints.calls, async ({ query }) => {
      const { cursor, pageSize, ...filter } = query
      return adminCalls(db, filter, cursor, pageSize)
    }),
    defineRoute(adminEndpoints.call, async ({ params }) => adminCallDetail(db, params.id)),
    defineRoute(adminEndpoints.exportCalls, async ({ query }) => {
      const day = new Date(clock.now()).toISOString().slice(0, 10)
      return new Response(adminCallsCsv(db, query), {
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="calls-${day}.csv"`, 'cache-control': 'no-store' },
      })
    }),
  ]
}
