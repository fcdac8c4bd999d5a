/**
 * Resource routes get no origin check from React Router (it guards page actions only), so every
 * resource route that accepts a POST uses this middleware (docs/architecture.md §8).
 */
import { createCsrfMiddleware } from 'remix-utils/middleware/csrf'

export const csrfMiddleware = createCsrfMiddleware()
