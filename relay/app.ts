/**
 * The relay as a Hono app, built only from its dependencies (docs/architecture.md §4): no globals, no
 * environment reads, so tests and the embedding portal server build it the same way.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { adminRoutes } from './admin/routes.ts'
import { adminOpsRoutes } from './admin/ops-routes.ts'
import { alertRoutes } from './alerts/routes.ts'
import { docsEndpoints } from './contract/docs.ts'
import { authRoutes } from './auth/routes.ts'
import { securityRoutes } from './auth/security-routes.ts'
import { errorResponse } from './http/envelope.ts'
import { healthRoutes } from './health/routes.ts'
import { metricsResponse } from './telemetry/registry.ts'
import { handleError, handleNotFound } from './http/error-handlers.ts'
import { mountRoutes } from './http/mount-routes.ts'
import { createOpenApiDocument } from './http/openapi.ts'
import { RelayError } from './http/relay-error.ts'
import { securityHeaders } from './http/security-headers.ts'
import { relayGetPath } from './http/request-path.ts'
import type { RelayEnv } from './http/relay-env.ts'
import { defineRoute, type Route } from './http/route.ts'
import { apiKeyRoutes } from './keys/routes.ts'
import { usageRoutes } from './usage/routes.ts'
import { notificationRoutes } from './notifications/routes.ts'
import { oauthRoutes } from './oauth/routes.ts'
import { pointsRoutes } from './points/routes.ts'
import { describeProxyRoutes, mountProxyRoutes } from './proxy/routes.ts'
import { publicRoutes } from './public-stats/routes.ts'
import { referralRoutes } from './referral/routes.ts'
import { resourceRoutes } from './resources/routes.ts'
import type { RelayServices } from './services.ts'
import { subscriptionRoutes } from './subscriptions/routes.ts'
import { teamRoutes } from './teams/routes.ts'
import { ticketRoutes } from './tickets/routes.ts'
import { userRoutes } from './users/routes.ts'

/** Every domain area contributes its routes here, one entry per area. */
const areaRoutes: ReadonlyArray<(services: RelayServices) => Route[]> = [healthRoutes, authRoutes, securityRoutes, oauthRoutes, userRoutes, apiKeyRoutes, referralRoutes, ticketRoutes, resourceRoutes, pointsRoutes, usageRoutes, subscriptionRoutes, teamRoutes, publicRoutes, adminRoutes, adminOpsRoutes, alertRoutes, notificationRoutes]

/** Account calls carry small JSON bodies; anything larger is a mistake or an attack. */
const apiBodyLimitBytes = 256 * 1024

export function createRelayApp(services: RelayServices): Hono<RelayEnv> {
  const areaRouteList = areaRoutes.flatMap((area) => area(services))
  // The document describes every call, itself included.
  const document = createOpenApiDocument([...areaRouteList.map((route) => route.endpoint), docsEndpoints.openapi], services.config.publicUrl)
  describeProxyRoutes(document)
  const routes = [...areaRouteList, defineRoute(docsEndpoints.openapi, async ({ c }) => c.json(document))]
  const app = new Hono<RelayEnv>({ getPath: relayGetPath })

  const headers = Object.entries(securityHeaders(services.config.publicUrl))
  app.use('*', async (c, next) => {
    await next()
    for (const [name, value] of headers) c.header(name, value)
  })

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: apiBodyLimitBytes,
      onError: (c) => errorResponse(c, new RelayError('payload_too_large')),
    }),
  )
  mountRoutes(app, routes, services)
  mountProxyRoutes(app, services)
  app.get('/metrics', (c) => metricsResponse(c.req.raw, services.config.metricsToken))

  app.notFound(handleNotFound)
  app.onError(handleError(services.logger))
  return app
}
