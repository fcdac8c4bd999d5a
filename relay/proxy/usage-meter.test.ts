import { describe, expect, it } from 'vitest'
import { SseSplitter } from './sse.ts'
import { AnthropicUsageMeter, isOpenAiUsageChunk, OpenAiUsageMeter, ResponsesUsageMeter, tokensOfBytes } from './usage-meter.ts'

const encoder = new TextEncoder()
const stream = [
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":25,"cache_read_input_tokens":7,"cache_creation_input_tokens":3,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"狐狸 fox"}}\n\n',
  ': a comment\r\ndata: {"type":"content_block_delta","index":0,\r\ndata: "delta":{"type":"input_json_delta","partial_json":"{\\"a\\":1}"}}\r\n\r\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":15}}\n\n',
].join('')

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [0, ...cuts, bytes.length]
  return points.slice(1).map((end, i) => bytes.subarray(points[i], end))
}

describe('SseSplitter', () => {
  it('finds the same events wherever the chunks are cut, multi-byte characters and CRLF included', () => {
    const bytes = encoder.encode(stream)
    const whole = new SseSplitter().push(bytes)
    expect(whole.map((e) => e.raw).join('')).toBe(stream)
    expect(whole).toHaveLength(4)
    expect(JSON.parse(whole[2]!.data)).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } })
    for (let cut = 1; cut < bytes.length; cut++) {
      const splitter = new SseSplitter()
      const events = splitAt(bytes, [cut]).flatMap((chunk) => splitter.push(chunk))
      expect(events).toEqual(whole)
    }
    const oneByOne = new SseSplitter()
    expect(Array.from(bytes).flatMap((byte) => oneByOne.push(Uint8Array.of(byte)))).toEqual(whole)
  })

  it('keeps an unterminated last event for rest()', () => {
    const splitter = new SseSplitter()
    expect(splitter.push(encoder.encode('data: 1\n\ndata: 2'))).toEqual([{ raw: 'data: 1\n\n', data: '1' }])
    expect(splitter.rest()).toBe('data: 2')
  })
})

describe('usage meters', () => {
  const events = (meter: { event(data: string): void }, text: string) => {
    for (const event of new SseSplitter().push(encoder.encode(text))) meter.event(event.data)
  }

  it('Anthropic: the provider’s figures for a complete stream; at least what was delivered for an incomplete one', () => {
    const meter = new AnthropicUsageMeter()
    events(meter, stream)
    expect(meter.usage(true, 999)).toEqual({ input_tokens: 25, output_tokens: 15, cache_read_tokens: 7, cache_write_tokens: 3, cache_write_1h_tokens: 0, web_search_requests: 0 })

    const cut = new AnthropicUsageMeter()
    events(cut, stream.slice(0, stream.indexOf('event: message_delta')))
    const delivered = tokensOfBytes(Buffer.byteLength('狐狸 fox') + Buffer.byteLength('{"a":1}'))
    expect(cut.usage(false, 999)).toEqual({ input_tokens: 25, output_tokens: delivered, cache_read_tokens: 7, cache_write_tokens: 3, cache_write_1h_tokens: 0, web_search_requests: 0 })
  })

  it('Anthropic: a stream that ends without its final usage is charged for what it delivered, not message_start\'s placeholder', () => {
    const meter = new AnthropicUsageMeter()
    const withoutUsage = [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":25,"output_tokens":1}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"sixteen bytes!!!"}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join('')
    events(meter, withoutUsage)
    expect(meter.usage(true, 999)).toMatchObject({ input_tokens: 25, output_tokens: 4 })
  })

  it('Anthropic: cache writes by lifetime and web searches, in message_start and message_delta alike', () => {
    const meter = new AnthropicUsageMeter()
    const start = { input_tokens: 20, cache_creation_input_tokens: 700, cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 400 }, output_tokens: 1 }
    events(meter, `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: start } })}\n\n`)
    expect(meter.usage(false, 999)).toMatchObject({ cache_write_tokens: 300, cache_write_1h_tokens: 400, web_search_requests: 0 })
    // The final event repeats the cumulative figures with the searches made meanwhile.
    const end = { ...start, output_tokens: 50, server_tool_use: { web_search_requests: 3 } }
    events(meter, `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: end })}\n\n`)
    expect(meter.usage(true, 999)).toEqual({ input_tokens: 20, output_tokens: 50, cache_read_tokens: 0, cache_write_tokens: 300, cache_write_1h_tokens: 400, web_search_requests: 3 })

    // Without the split (older API versions), every write is a 5-minute one.
    const body = new AnthropicUsageMeter()
    body.body(encoder.encode(JSON.stringify({ usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 500, server_tool_use: { web_search_requests: 1 } } })))
    expect(body.usage(true, 999)).toMatchObject({ cache_write_tokens: 500, cache_write_1h_tokens: 0, web_search_requests: 1 })
  })

  it('estimates the input from the request when the provider reported nothing', () => {
    expect(new AnthropicUsageMeter().usage(false, 321)).toEqual({ input_tokens: 321, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 0 })
  })

  it('reads a whole JSON body, however it arrived in pieces', () => {
    const body = encoder.encode(JSON.stringify({ id: 'msg', usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 0 } }))
    const meter = new AnthropicUsageMeter()
    for (const chunk of splitAt(body, [5, 17])) meter.body(chunk)
    expect(meter.usage(true, 999)).toEqual({ input_tokens: 10, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 0 })
  })

  it('OpenAI: cached prompt tokens apart from the rest; the usage-only chunk recognised', () => {
    const usageChunk = '{"id":"c","choices":[],"usage":{"prompt_tokens":100,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":60}}}'
    const meter = new OpenAiUsageMeter()
    meter.event('{"id":"c","choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}')
    meter.event(usageChunk)
    meter.event('[DONE]')
    expect(meter.usage(true, 999)).toEqual({ input_tokens: 40, output_tokens: 9, cache_read_tokens: 60, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 0 })
    expect(isOpenAiUsageChunk(usageChunk)).toBe(true)
    expect(isOpenAiUsageChunk('{"id":"c","choices":[{"index":0,"delta":{}}],"usage":null}')).toBe(false)
    expect(isOpenAiUsageChunk('[DONE]')).toBe(false)

    const cut = new OpenAiUsageMeter()
    cut.event('{"choices":[{"index":0,"delta":{"content":"abcdefgh","tool_calls":[{"function":{"arguments":"{}"}}]}}]}')
    expect(cut.usage(false, 50)).toEqual({ input_tokens: 50, output_tokens: tokensOfBytes(10), cache_read_tokens: 0, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 0 })
  })

  describe('Responses', () => {
    const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
    const search = (id: string) => ({ type: 'web_search_call', id, status: 'completed' })
    const usage = { input_tokens: 9300, input_tokens_details: { cached_tokens: 9000 }, output_tokens: 250, output_tokens_details: { reasoning_tokens: 200 } }
    const streamed = [
      sse('response.created', { response: { status: 'in_progress', usage: null } }),
      sse('response.output_item.done', { output_index: 0, item: search('ws_1') }),
      sse('response.output_item.done', { output_index: 1, item: search('ws_2') }),
      sse('response.output_text.delta', { delta: '狐狸 fox' }),
      sse('response.completed', { response: { status: 'completed', output: [search('ws_1'), search('ws_2')], usage } }),
    ]

    it('cached input apart, reasoning inside output, each web search once', () => {
      const meter = new ResponsesUsageMeter()
      events(meter, streamed.join(''))
      expect(meter.usage(true, 1)).toEqual({ input_tokens: 300, output_tokens: 250, cache_read_tokens: 9000, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 2 })
      const whole = new ResponsesUsageMeter()
      whole.body(encoder.encode(JSON.stringify({ status: 'completed', output: [search('ws_1')], usage })))
      expect(whole.usage(true, 1)).toEqual({ input_tokens: 300, output_tokens: 250, cache_read_tokens: 9000, cache_write_tokens: 0, cache_write_1h_tokens: 0, web_search_requests: 1 })
    })

    it('a cut stream: the input estimate and the text delivered; a failure before any output: nothing', () => {
      const cut = new ResponsesUsageMeter()
      events(cut, streamed.slice(0, 4).join(''))
      expect(cut.usage(false, 77)).toMatchObject({ input_tokens: 77, output_tokens: tokensOfBytes(Buffer.byteLength('狐狸 fox')), web_search_requests: 2 })
      const failed = new ResponsesUsageMeter()
      events(failed, streamed[0]! + sse('response.failed', { response: { status: 'failed', error: { code: 'rate_limit_exceeded' }, usage: null } }))
      expect(failed.usage(true, 77)).toEqual({ input_tokens: 0, output_tokens: 0 })
    })
  })
})
