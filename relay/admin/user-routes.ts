/**
 * The console's calls on users beyond the account facts (relay/contract/admin-users.ts): create a
 * user, start a trial package, read as the user. Thin handlers over the CLI's service functions.
 */
import { consoleOperator } from '../audit/audit-log.ts'
import { adminUserEndpoints } from '../contract/admin-users.ts'
import { callerSessionId } from '../http/authenticate.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { grantTrialAsOperator } from '../subscriptions/trial.ts'
import { createUserAsOperator, generatedPassword } from '../users/create.ts'
import { toUser } from '../users/users.ts'
import { startViewAsOperator } from './view-as.ts'

export function adminUserRoutes(services: RelayServices): Route[] {
  return [
    defineRoute(adminUserEndpoints.createUser, async ({ user, clientIp, body }) => {
      const password = generatedPassword()
      const created = await createUserAsOperator(services, consoleOperator(user, clientIp), { username: body.username, email: body.email, password, userType: body.user_type })
      return { user: toUser(created), password }
    }),
    defineRoute(adminUserEndpoints.grantTrial, async ({ user, clientIp, params, body }) => {
      const trial = await grantTrialAsOperator(services, consoleOperator(user, clientIp), { user: { id: params.id }, packageCode: body.package_code })
      return { package_code: trial.package_code, points: trial.points, end_timestamp: trial.end_timestamp }
    }),
    defineRoute(adminUserEndpoints.viewAs, async ({ user, clientIp, params, c }) => {
      return startViewAsOperator(services, consoleOperator(user, clientIp), { userId: params.id, sessionId: await callerSessionId(c, services) })
    }),
  ]
}
