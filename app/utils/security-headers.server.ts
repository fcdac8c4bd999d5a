import { servedOverHttps } from '#server/env.ts'

/**
 * Security headers for every portal response (docs/architecture.md §8). Documents also get a CSP whose
 * script-src allows only this request's nonce. The Vite dev server (its injected client scripts and
 * HMR socket) gets no CSP; every build does, whatever NODE_ENV says.
 */
export function applySecurityHeaders(headers: Headers, nonce?: string): void {
  headers.set('X-Content-Type-Options', 'nosniff')
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  headers.set('X-Frame-Options', 'DENY')
  headers.set('Cross-Origin-Opener-Policy', 'same-origin')
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
  if (servedOverHttps()) {
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  }
  if (!import.meta.env.DEV) {
    if (nonce) {
      headers.set(
        'Content-Security-Policy',
        [
          "default-src 'self'",
          `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: https:",
          "connect-src 'self'",
          "font-src 'self'",
          "object-src 'none'",
          "base-uri 'none'",
          "frame-ancestors 'none'",
        ].join('; '),
      )
    }
  }
}
