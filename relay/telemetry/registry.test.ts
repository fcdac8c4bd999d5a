import { describe, expect, it } from 'vitest'
import { metricsResponse } from './registry.ts'

const token = 'registry-test-token-0123456789'
const scrape = (authorization?: string) => new Request('http://relay.test/metrics', { headers: authorization ? { authorization } : {} })

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN, whatever is sent', async () => {
    expect((await metricsResponse(scrape(), undefined)).status).toBe(404)
    expect((await metricsResponse(scrape(`Bearer ${token}`), undefined)).status).toBe(404)
  })

  it('answers only the bearer of the token', async () => {
    expect((await metricsResponse(scrape(), token)).status).toBe(401)
    expect((await metricsResponse(scrape(`Bearer ${token}x`), token)).status).toBe(401)
    expect((await metricsResponse(scrape(`Basic ${token}`), token)).status).toBe(401)
    const answer = await metricsResponse(scrape(`Bearer ${token}`), token)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toMatch(/^# HELP process_cpu_user_seconds_total/m)
  })
})
