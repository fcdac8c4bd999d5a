/**
 * A read a page can do without (an open-ticket count, the referral rule): a relay refusal or
 * outage becomes null, so that part of the page says "unavailable" instead of the page failing.
 * Anything else, such as the sign-out redirect of a 401, still propagates.
 */
import { isRelayUnavailable, RelayCallError } from './relay-client.server.ts'

export async function optionalRead<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read
  } catch (error) {
    if (error instanceof RelayCallError || isRelayUnavailable(error)) return null
    throw error
  }
}
