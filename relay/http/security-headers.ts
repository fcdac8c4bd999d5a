/**
 * Headers on every answer of the relay: never sniffed as another type, never leaking its address
 * onwards; over https, https only. Set by relay/app.ts on each response, and written with the head
 * of a stream the relay writes to the socket itself (proxy/response-stream.ts).
 */
export function securityHeaders(publicUrl: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(publicUrl.startsWith('https://') ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  }
}
