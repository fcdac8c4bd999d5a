/**
 * The path the relay routes by. An SDK whose base URL ends in '/' (`https://relay.example.com/`)
 * joins it with '/v1/messages' into '//v1/messages'; nothing else could be meant, so leading
 * slashes count as one, on the relay (its Hono `getPath`) and on the portal's server, which
 * decides what the embedded relay answers (server/relay-paths.ts).
 */
import type { Hono } from 'hono'
import { getPath } from 'hono/utils/url'

export function collapseLeadingSlashes(path: string): string {
  return path.replace(/^\/{2,}/, '/')
}

export const relayGetPath: NonNullable<ConstructorParameters<typeof Hono>[0]>['getPath'] = (request) => collapseLeadingSlashes(getPath(request))
