/**
 * The address users reach this deployment at: PUBLIC_URL when the operator set it, else the
 * request's own origin (a local try-out). The relay is mounted on the same origin, so this is also
 * the base URL CLI clients are pointed at.
 */
export function publicUrl(request: Request): string {
  return (process.env.PUBLIC_URL || new URL(request.url).origin).replace(/\/+$/, '')
}
