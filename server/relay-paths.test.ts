import { describe, expect, it } from 'vitest'
import { isRelayPath } from './relay-paths.ts'

describe('isRelayPath', () => {
  it('gives the relay /api and /v1, but the API reference pages and their data to the portal', () => {
    for (const path of ['/api/openapi.json', '/api/user/points', '/api/docsx', '/api/v1/usage', '/v1/messages', '/v1beta', '/v1beta/models', '/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent']) expect(isRelayPath(path), path).toBe(true)
    for (const path of ['/api/docs', '/api/docs/', '/api/docs.data', '/api/docs/points', '/api/docs/points.data', '/dashboard', '/api', '/v1betax', '/v1beta.data']) expect(isRelayPath(path), path).toBe(false)
  })

  it('reads leading slashes as one, as the relay does (a base URL ending in /)', () => {
    for (const path of ['//v1/messages', '///api/user/points']) expect(isRelayPath(path), path).toBe(true)
    expect(isRelayPath('//api/docs')).toBe(false)
  })
})
