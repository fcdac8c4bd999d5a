/** Resource links for the profile page. */
import { resourceListSchema, resourcePaths } from '../contract/resources.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { listResourceLinks } from './service.ts'

export function resourceRoutes({ db }: RelayServices): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: resourcePaths.resources,
      summary: 'Resource links, in display order, with their count and last change',
      tag: 'resources',
      auth: 'user',
      response: resourceListSchema,
      handler: async () => listResourceLinks(db),
    }),
  ]
}
