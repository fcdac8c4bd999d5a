import { describe, expect, it } from 'vitest'
import { isRelayPath, isRelayTarget } from './relay-paths.ts'

describe('isRelayPath', () => {
  it('gives the relay /api and /v1, but the API reference pages and their data to the portal', () => {
    for (const path of ['/api/openapi.json', '/api/user/points', '/api/docsx', '/api/v1/usage', '/v1/messages', '/v1beta', '/v1beta/models', '/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent']) expect(isRelayPath(path), path).toBe(true)
    for (const path of ['/api/docs', '/api/docs/', '/api/docs.data', '/api/docs/points', '/api/docs/points.data', '/dashboard', '/api', '/v1betax', '/v1beta.data']) expect(isRelayPath(path), path).toBe(false)
  })

  it('reads leading slashes as one, as the relay does (a base URL ending in /)', () => {
    for (const path of ['//v1/messages', '///api/user/points']) expect(isRelayPath(path), path).toBe(true)
    expect(isRelayPath('//api/docs')).toBe(false)
  })

  it('reads a request target as it came, query and all, never as a URL relative to a host', () => {
    for (const target of ['//v1/messages', '//v1/messages?beta=true', '/v1beta?key=k', '//v1beta/models/m:generateContent?alt=sse']) expect(isRelayTarget(target), target).toBe(true)
    for (const target of ['/api/docs?lang=en', '/dashboard?next=/v1/messages', '/messages']) expect(isRelayTarget(target), target).toBe(false)
  })
})
