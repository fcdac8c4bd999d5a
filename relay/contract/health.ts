/** Liveness with a database round trip, for the portal's health route and load balancers; 503 while the relay drains to stop. */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'

export const healthEndpoints = {
  health: endpoint({
    method: 'get',
    path: '/api/health',
    summary: 'The relay answers and reaches its database',
    tag: 'health',
    auth: 'none',
    description: 'Answers 503 `unavailable` while the relay is stopping (it finishes its calls in flight and takes no new ones), so a load balancer sends it nothing new.',
    errors: ['unavailable'],
    response: z.object({ status: z.literal('ok') }),
  }),
}
