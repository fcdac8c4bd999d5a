/** Screens of the portal the relay points people at; zod-free, so public pages import it without the contract's schemas. */
export const oauthScreens = {
  device: '/auth/device-code',
  oauth: '/auth/oauth-authorize',
  sso: '/auth/sso-authorize',
} as const
