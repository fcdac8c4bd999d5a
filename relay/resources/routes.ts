/** Resource links for the profile page. */
import { resourceEndpoints } from '../contract/resources.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { listResourceLinks } from './service.ts'

export function resourceRoutes({ db }: RelayServices): Route[] {
  return [
    defineRoute(resourceEndpoints.list, async () => listResourceLinks(db)),
  ]
}
