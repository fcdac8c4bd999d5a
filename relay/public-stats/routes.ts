/** The public figures, prices and status (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/080-prices.md): no account needed. */
import { publicEndpoints } from '../contract/public.ts'
import { defineRoute, type Route } from '../http/route.ts'
import type { RelayServices } from '../services.ts'
import { publicFigures, publicPricing, publicStatus } from './figures.ts'

export function publicRoutes({ db, clock }: RelayServices): Route[] {
  return [
    defineRoute(publicEndpoints.figures, () => publicFigures(db, clock.now())),
    defineRoute(publicEndpoints.pricing, ({ lang }) => publicPricing(db, lang)),
    defineRoute(publicEndpoints.status, () => publicStatus(db, clock.now())),
  ]
}
