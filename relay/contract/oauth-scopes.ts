/** The permissions an OAuth client asks for (oauth.ts), and the scope a call requires (endpoint.ts). */

/** The three permissions the consent screens list (docs/product.md), in that order. */
export const oauthScopes = ['profile', 'api', 'billing'] as const
export type OAuthScope = (typeof oauthScopes)[number]
/** What a client gets when it names no scope. */
export const defaultScope: OAuthScope = 'profile'

/**
 * A space-separated scope parameter as a list in the order of `oauthScopes`, each at most once;
 * absent or blank means `defaultScope`; null when it names a scope we do not have.
 */
export function parseScopes(scope: string | undefined): OAuthScope[] | null {
  const names = (scope ?? '').split(/\s+/).filter(Boolean)
  if (names.length === 0) return [defaultScope]
  if (!names.every((name) => (oauthScopes as readonly string[]).includes(name))) return null
  return oauthScopes.filter((known) => names.includes(known))
}
