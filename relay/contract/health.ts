/** Liveness with a database round trip, for the portal's health route and load balancers. */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'

export const healthEndpoints = {
  health: endpoint({
    method: 'get',
    path: '/api/health',
    summary: 'The relay answers and reaches its database',
    tag: 'health',
    auth: 'none',
    response: z.object({ status: z.literal('ok') }),
  }),
}
