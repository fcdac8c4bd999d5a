import { describe, expect, it } from 'vitest'
import { affinityKey, installationHeader, sessionHeaders } from './session-affinity.ts'

const caller = { userId: '1', keyId: '2', clientId: null, key: null }

describe('affinityKey', () => {
  it('takes Claude Code’s or Codex’s session, then Gemini CLI’s installation, then metadata.user_id, then the key', () => {
    const headers = (values: Record<string, string>) => (name: string) => values[name]
    for (const sessionHeader of sessionHeaders) {
      expect(affinityKey(headers({ [sessionHeader]: 's', [installationHeader]: 'i' }), { metadataUserId: 'u' }, caller)).toBe('session:s')
    }
    expect(affinityKey(headers({ [installationHeader]: 'i' }), { metadataUserId: 'u', sessionId: 'p' }, caller)).toBe('session:p')
    expect(affinityKey(headers({ [installationHeader]: 'i' }), { metadataUserId: 'u' }, caller)).toBe('installation:i')
    expect(affinityKey(headers({}), { metadataUserId: 'u' }, caller)).toBe('user:u')
    expect(affinityKey(headers({}), {}, caller)).toBe('key:2')
  })
})
