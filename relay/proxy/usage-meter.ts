/**
 * Reads token usage from a provider's answer, as it passes: from the stream's events (Anthropic
 * `message_start` and `message_delta`, OpenAI's final usage chunk, the Responses API's
 * `response.completed`, Gemini's `usageMetadata` on each chunk) or from a whole JSON body. It
 * also counts the content streamed so far, so a call that ends before the provider's final usage
 * (the client went away, the provider cut the stream) is still charged for what was delivered
 * (docs/decisions/072-how-a-call-is-charged.md).
 */
import type { TokenUsage } from '../points/model-costs.ts'

/** A rough token count of text: four UTF-8 bytes a token (about right for English and code, generous to CJK). */
export function tokensOfBytes(bytes: number): number {
  return Math.ceil(bytes / 4)
}

export interface UsageMeter {
  /** One SSE event's data (streamed answers). */
  event(data: string): void
  /** A piece of a JSON body (whole answers). */
  body(chunk: Uint8Array): void
  /**
   * The usage to charge. `complete`: the answer ended normally, so the provider's own figures
   * stand. Otherwise: what it reported so far, input estimated from the request if it reported
   * none, output at least the content delivered.
   */
  usage(complete: boolean, requestInputTokens: number): TokenUsage
}

type Reported = Partial<Record<keyof Required<TokenUsage>, number>>

/** Bodies larger than this are not kept for their usage (and are charged by estimate). */
const maxBodyBytes = 8 * 1024 * 1024

abstract class Meter implements UsageMeter {
  protected reported: Reported = {}
  /**
   * Whether `reported.output_tokens` is the provider's final figure. Anthropic's stream opens with
   * a provisional one (`message_start`, usually 1) that only `message_delta` replaces: a stream
   * that ends without it is charged for the content delivered, not for that placeholder.
   */
  protected outputFinal = false
  protected contentBytes = 0
  #body: Uint8Array[] | null = []
  #bodyBytes = 0

  abstract event(data: string): void
  protected abstract fromBody(json: unknown): void

  body(chunk: Uint8Array): void {
    this.#bodyBytes += chunk.byteLength
    if (this.#body && this.#bodyBytes <= maxBodyBytes) this.#body.push(chunk)
    else this.#body = null
  }

  usage(complete: boolean, requestInputTokens: number): TokenUsage {
    if (this.#body && this.#body.length > 0) {
      try {
        this.fromBody(JSON.parse(Buffer.concat(this.#body).toString('utf8')))
      } catch {
        // Cut short or not JSON: fall back to the estimate below.
      }
      this.#body = null
    }
    if (this.#bodyBytes > 0 && this.reported.output_tokens === undefined) this.contentBytes = this.#bodyBytes
    const r = this.reported
    const delivered = tokensOfBytes(this.contentBytes)
    return {
      input_tokens: r.input_tokens ?? requestInputTokens,
      output_tokens: complete && this.outputFinal && r.output_tokens !== undefined ? r.output_tokens : Math.max(r.output_tokens ?? 0, delivered),
      cache_read_tokens: r.cache_read_tokens ?? 0,
      cache_write_tokens: r.cache_write_tokens ?? 0,
      cache_write_1h_tokens: r.cache_write_1h_tokens ?? 0,
      web_search_requests: r.web_search_requests ?? 0,
    }
  }

  protected countText(text: unknown): void {
    if (typeof text === 'string' && text.length > 0) this.contentBytes += Buffer.byteLength(text)
  }
}

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

function parse(data: string): Json | null {
  try {
    const value: unknown = JSON.parse(data)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

/**
 * Anthropic Messages: usage figures are cumulative; a later event's figure replaces an earlier one.
 * Cache writes come split by lifetime in `cache_creation` (5-minute and 1-hour, billed apart);
 * without it, `cache_creation_input_tokens` are 5-minute writes. Searches are counted in
 * `server_tool_use`.
 */
export class AnthropicUsageMeter extends Meter {
  event(data: string): void {
    // Only these carry usage or content; pings, block starts and stops need no parsing.
    if (!data.includes('delta') && !data.includes('message_start')) return
    const event = parse(data)
    if (!event) return
    if (event.type === 'content_block_delta' && isObject(event.delta)) {
      this.countText(event.delta.text ?? event.delta.partial_json ?? event.delta.thinking)
    } else if (event.type === 'message_start' && isObject(event.message)) {
      this.merge(event.message.usage, false)
    } else if (event.type === 'message_delta') {
      this.merge(event.usage, true)
    }
  }

  protected fromBody(json: unknown): void {
    if (isObject(json)) this.merge(json.usage, true)
  }

  private merge(usage: unknown, final: boolean): void {
    if (!isObject(usage)) return
    if (final && count(usage.output_tokens) !== undefined) this.outputFinal = true
    const split = isObject(usage.cache_creation) ? usage.cache_creation : null
    const next: Reported = {
      input_tokens: count(usage.input_tokens),
      output_tokens: count(usage.output_tokens),
      cache_read_tokens: count(usage.cache_read_input_tokens),
      cache_write_tokens: split ? count(split.ephemeral_5m_input_tokens) : count(usage.cache_creation_input_tokens),
      cache_write_1h_tokens: split ? count(split.ephemeral_1h_input_tokens) : undefined,
      web_search_requests: isObject(usage.server_tool_use) ? count(usage.server_tool_use.web_search_requests) : undefined,
    }
    for (const [field, value] of Object.entries(next) as Array<[keyof Reported, number | undefined]>) {
      if (value !== undefined) this.reported[field] = value
    }
  }
}

/** OpenAI chat completions: prompt_tokens include the cached ones, which bill at their own rate. */
export class OpenAiUsageMeter extends Meter {
  event(data: string): void {
    if (data === '[DONE]') return
    const chunk = parse(data)
    if (!chunk) return
    if (Array.isArray(chunk.choices)) {
      for (const choice of chunk.choices) {
        if (!isObject(choice) || !isObject(choice.delta)) continue
        this.countText(choice.delta.content)
        this.countText(choice.delta.reasoning_content)
        if (Array.isArray(choice.delta.tool_calls)) {
          for (const call of choice.delta.tool_calls) if (isObject(call) && isObject(call.function)) this.countText(call.function.arguments)
        }
      }
    }
    this.merge(chunk.usage)
  }

  protected fromBody(json: unknown): void {
    if (isObject(json)) this.merge(json.usage)
  }

  private merge(usage: unknown): void {
    if (!isObject(usage)) return
    const prompt = count(usage.prompt_tokens)
    const completion = count(usage.completion_tokens)
    if (prompt === undefined || completion === undefined) return
    const cached = Math.min(prompt, (isObject(usage.prompt_tokens_details) ? count(usage.prompt_tokens_details.cached_tokens) : undefined) ?? 0)
    // OpenAI reports usage once, at the end.
    this.outputFinal = true
    this.reported = { input_tokens: prompt - cached, output_tokens: completion, cache_read_tokens: cached, cache_write_tokens: 0 }
  }
}

/** Responses stream events whose `delta` is content the model produced (text, reasoning, tool input). */
const responsesContentDeltas = new Set([
  'response.output_text.delta',
  'response.refusal.delta',
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
])

/**
 * OpenAI Responses: `response.completed` (or `.incomplete`, `.failed`) carries the response with
 * its usage, once, at the end; `input_tokens` include the cached ones, which bill at their own
 * rate, and `output_tokens` include the reasoning ones. Each hosted web search is a
 * `web_search_call` output item. A response that failed before any output costs nothing.
 */
export class ResponsesUsageMeter extends Meter {
  #searches = new Set<string>()
  #failedBeforeOutput = false

  event(data: string): void {
    // Only these carry usage, content or output items; the rest need no parsing.
    if (!data.includes('delta') && !data.includes('.done') && !data.includes('"response"')) return
    const event = parse(data)
    if (!event || typeof event.type !== 'string') return
    if (responsesContentDeltas.has(event.type)) this.countText(event.delta)
    else if (event.type === 'response.output_item.done' && isObject(event.item)) this.search(event.item, event.output_index)
    else if (isObject(event.response) && /^response\.(completed|incomplete|failed)$/.test(event.type)) this.fromResponse(event.response)
  }

  protected fromBody(json: unknown): void {
    if (isObject(json)) this.fromResponse(json)
  }

  override usage(complete: boolean, requestInputTokens: number): TokenUsage {
    const usage = super.usage(complete, requestInputTokens)
    if (this.#failedBeforeOutput && this.reported.output_tokens === undefined && this.contentBytes === 0) return { input_tokens: 0, output_tokens: 0 }
    return this.#searches.size > 0 ? { ...usage, web_search_requests: this.#searches.size } : usage
  }

  private fromResponse(response: Json): void {
    if (Array.isArray(response.output)) response.output.forEach((item, i) => isObject(item) && this.search(item, i))
    const usage = response.usage
    if (response.status === 'failed' && !isObject(usage)) this.#failedBeforeOutput = true
    if (!isObject(usage)) return
    const input = count(usage.input_tokens)
    const output = count(usage.output_tokens)
    if (input === undefined || output === undefined) return
    const cached = Math.min(input, (isObject(usage.input_tokens_details) ? count(usage.input_tokens_details.cached_tokens) : undefined) ?? 0)
    this.outputFinal = true
    this.reported = { input_tokens: input - cached, output_tokens: output, cache_read_tokens: cached, cache_write_tokens: 0 }
  }

  /** A search is counted once, whether seen as its `output_item.done` event or in the final response. */
  private search(item: Json, index: unknown): void {
    if (item.type === 'web_search_call') this.#searches.add(typeof item.id === 'string' ? item.id : `#${String(index)}`)
  }
}

/**
 * Google's Gemini API: every chunk of a stream carries `usageMetadata` so far, the last one the
 * final figures. `promptTokenCount` includes `cachedContentTokenCount`, which bills at the cache
 * rate, and tool-use prompts (`toolUsePromptTokenCount`) bill as input; thoughts
 * (`thoughtsTokenCount`) bill as output beside `candidatesTokenCount`.
 */
export class GeminiUsageMeter extends Meter {
  event(data: string): void {
    this.chunk(parse(data))
  }

  protected fromBody(json: unknown): void {
    // streamGenerateContent without alt=sse answers a JSON array of the chunks.
    for (const chunk of Array.isArray(json) ? json : [json]) this.chunk(isObject(chunk) ? chunk : null)
    this.outputFinal = this.reported.output_tokens !== undefined
  }

  private chunk(chunk: Json | null): void {
    if (!chunk) return
    if (Array.isArray(chunk.candidates)) {
      for (const candidate of chunk.candidates) {
        if (!isObject(candidate)) continue
        // The chunk that ends a candidate carries the final figures.
        if (typeof candidate.finishReason === 'string') this.outputFinal = true
        if (!isObject(candidate.content) || !Array.isArray(candidate.content.parts)) continue
        for (const part of candidate.content.parts) {
          if (!isObject(part)) continue
          this.countText(part.text)
          if (isObject(part.functionCall)) this.countText(JSON.stringify(part.functionCall.args ?? {}))
        }
      }
    }
    const usage = chunk.usageMetadata
    if (!isObject(usage)) return
    const prompt = count(usage.promptTokenCount)
    if (prompt === undefined) return
    const cached = Math.min(prompt, count(usage.cachedContentTokenCount) ?? 0)
    const output = (count(usage.candidatesTokenCount) ?? 0) + (count(usage.thoughtsTokenCount) ?? 0)
    this.reported = {
      input_tokens: prompt - cached + (count(usage.toolUsePromptTokenCount) ?? 0),
      output_tokens: output,
      cache_read_tokens: cached,
      cache_write_tokens: 0,
    }
  }
}

/** Whether an OpenAI stream event is the usage-only chunk `stream_options.include_usage` adds. */
export function isOpenAiUsageChunk(data: string): boolean {
  if (!data.includes('"usage"')) return false
  const chunk = parse(data)
  return chunk !== null && Array.isArray(chunk.choices) && chunk.choices.length === 0 && isObject(chunk.usage)
}
