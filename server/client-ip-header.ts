/**
 * The process entry puts the browser's address on every portal request under this header (after
 * dropping any copy the client sent), so the relay can rate-limit by the real caller.
 */
export const clientIpHeader = 'x-portal-client-ip'
