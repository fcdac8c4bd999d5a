import { describe, expect, it } from 'vitest'
import { ProxyError } from './client-errors.ts'
import { anthropicMessages, defaultOutputEstimate, openAiChat, type Dialect } from './dialects.ts'

const parse = (dialect: Dialect, body: Record<string, unknown>) => dialect.parse(Buffer.from(JSON.stringify(body)))
const refusal = (dialect: Dialect, body: Record<string, unknown>) => {
  try {
    parse(dialect, body)
  } catch (error) {
    return error instanceof ProxyError ? error.kind : 'not a ProxyError'
  }
  return 'accepted'
}

describe('quantities that multiply what a call costs', () => {
  const chat = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 }
  const message = { model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16_000 }

  it('OpenAI n: refused unless a whole number from 1 to 16, and reserved for n times over', () => {
    for (const n of [-1, 0, 1.5, '3', 17, 1_000_000]) expect(refusal(openAiChat, { ...chat, n })).toBe('invalid_request')
    expect(parse(openAiChat, { ...chat, n: 3 }).maxOutputTokens).toBe(300)
    expect(parse(openAiChat, { ...chat, n: null }).maxOutputTokens).toBe(100)
    expect(parse(openAiChat, { model: 'gpt-test', n: 2 }).maxOutputTokens).toBe(2 * defaultOutputEstimate)
  })

  it('Anthropic thinking budget: refused unless a positive whole number in range, reserved when above max_tokens', () => {
    for (const budget_tokens of [-1, 0, 1e12, 2.5, '2048']) {
      expect(refusal(anthropicMessages, { ...message, thinking: { type: 'enabled', budget_tokens } })).toBe('invalid_request')
    }
    expect(parse(anthropicMessages, { ...message, thinking: { type: 'enabled', budget_tokens: 8_000 } }).maxOutputTokens).toBe(16_000)
    expect(parse(anthropicMessages, { ...message, thinking: { type: 'enabled', budget_tokens: 32_000 } }).maxOutputTokens).toBe(32_000)
    expect(parse(anthropicMessages, { ...message, thinking: { type: 'adaptive' } }).maxOutputTokens).toBe(16_000)
  })
})
