/**
 * The portal's view of the configuration (relay/config.ts declares and parses it): what the
 * portal's modules ask of it, read from the configuration handed over at start.
 */
import { currentConfig, type PortalConfig } from '#relay/config.ts'

export function portalConfig(): PortalConfig {
  return currentConfig().portal
}

export function sessionSecrets(): string[] {
  return portalConfig().sessionSecrets
}

/**
 * Cookies are marked Secure (and HSTS sent) when the portal is served over https (PUBLIC_URL),
 * which is what "Secure in production" means in practice; a local http try-out still gets
 * working cookies.
 */
export function servedOverHttps(): boolean {
  return portalConfig().publicUrl?.startsWith('https://') ?? false
}

/**
 * The address users reach this deployment at: PUBLIC_URL when the operator set it, else the
 * request's own origin (a local try-out on another port). Invite links are built on it.
 */
export function publicUrl(request: Request): string {
  return (portalConfig().publicUrl ?? new URL(request.url).origin).replace(/\/+$/, '')
}

/**
 * The address CLI clients (Claude Code, SDKs) are pointed at, shown in every setup snippet:
 * RELAY_PUBLIC_URL when the operator sets it; else the relay's own URL when it runs elsewhere;
 * else this portal's address, where the embedded relay is mounted.
 */
export function apiBaseUrl(request: Request): string {
  const portal = portalConfig()
  return (portal.relayPublicUrl ?? portal.relayUrl ?? publicUrl(request)).replace(/\/+$/, '')
}
