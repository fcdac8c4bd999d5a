/** The relay's public contract: the only relay module the portal may import (docs/architecture.md §4). */
import { accountEndpoints } from './accounts.ts'
import { adminEndpoints } from './admin.ts'
import { adminOpsEndpoints } from './admin-ops.ts'
import { alertEndpoints } from './alerts.ts'
import { apiKeyEndpoints } from './api-keys.ts'
import { docsEndpoints } from './docs.ts'
import { healthEndpoints } from './health.ts'
import { notificationEndpoints } from './notifications.ts'
import { oauthEndpoints } from './oauth.ts'
import { pointsEndpoints } from './points.ts'
import { publicEndpoints } from './public.ts'
import { referralEndpoints } from './referral.ts'
import { resourceEndpoints } from './resources.ts'
import { securityEndpoints } from './security.ts'
import { subscriptionEndpoints } from './subscriptions.ts'
import { teamEndpoints } from './teams.ts'
import { ticketEndpoints } from './tickets.ts'
import { usageEndpoints } from './usage.ts'

export * from './envelope.ts'
export * from './endpoint.ts'
export * from './docs.ts'
export * from './json.ts'
export * from './ids.ts'
export * from './accounts.ts'
export * from './admin.ts'
export * from './admin-ops.ts'
export * from './admin-catalog.ts'
export * from './alerts.ts'
export * from './admin-users.ts'
export * from './admin-calls.ts'
export * from './oauth.ts'
export * from './oauth-scopes.ts'
export * from './api-keys.ts'
export * from './networks.ts'
export * from './csv.ts'
export * from './referral.ts'
export * from './paging.ts'
export * from './paths.ts'
export * from './points.ts'
export * from './subscriptions.ts'
export * from './teams.ts'
export * from './tickets.ts'
export * from './resources.ts'
export * from './security.ts'
export * from './languages.ts'
export * from './public.ts'
export * from './usage.ts'
export * from './notifications.ts'

/** Every call the relay serves in its envelope, by area: `relay.call(endpoints.teams.join, …)`. */
export const endpoints = {
  health: healthEndpoints,
  accounts: accountEndpoints,
  security: securityEndpoints,
  oauth: oauthEndpoints,
  apiKeys: apiKeyEndpoints,
  referral: referralEndpoints,
  tickets: ticketEndpoints,
  resources: resourceEndpoints,
  points: pointsEndpoints,
  subscriptions: subscriptionEndpoints,
  teams: teamEndpoints,
  public: publicEndpoints,
  admin: adminEndpoints,
  adminOps: adminOpsEndpoints,
  alerts: alertEndpoints,
  usage: usageEndpoints,
  notifications: notificationEndpoints,
  docs: docsEndpoints,
}
