/**
 * One alert as each kind of receiver takes it, and how it is signed:
 *
 * - `json`: our JSON, with `X-Relay-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`
 *   under the webhook's secret, as Stripe signs (docs/observability.md has the check);
 * - Slack and WeCom: their text message; the address carries the token;
 * - Feishu/Lark: its text message, with `timestamp` and `sign` in the body when the bot has a secret;
 * - DingTalk: its text message, with `timestamp` and `sign` in the query when the robot has a secret.
 *
 * The chat tools answer 200 with an error code in the body for a refused message: that is a
 * failed delivery too.
 */
import { createHmac } from 'node:crypto'
import type { AlertEvent, AlertPhase, WebhookKind } from '../contract/alerts.ts'
import type { AlertMessage } from './texts.ts'

export interface AlertEnvelope {
  /** The delivery's id: a receiver that sees it twice (a relay died mid-send) can drop the second. */
  id: string
  event: AlertEvent
  phase: AlertPhase
  incident_id: string | null
  subject: string
  message: AlertMessage
  details: unknown
  opened_at: number | null
  resolved_at: number | null
}

export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
}

export const signatureHeader = 'x-relay-signature'

/** `t=<unix>,v1=<hex>` of `body` at `unixSeconds`. */
export function signatureOf(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export function webhookRequest(kind: WebhookKind, url: string, secret: string | null, alert: AlertEnvelope, now: number): WebhookRequest {
  const headers = { 'content-type': 'application/json' }
  const text = `${alert.message.title}\n${alert.message.text}`
  const seconds = Math.floor(now / 1000)
  switch (kind) {
    case 'json': {
      const body = JSON.stringify({
        id: alert.id,
        event: alert.event,
        phase: alert.phase,
        incident_id: alert.incident_id,
        subject: alert.subject,
        title: alert.message.title,
        text: alert.message.text,
        details: alert.details,
        opened_at: iso(alert.opened_at),
        resolved_at: iso(alert.resolved_at),
      })
      return { url, headers: { ...headers, [signatureHeader]: signatureOf(secret ?? '', seconds, body) }, body }
    }
    case 'slack':
      return { url, headers, body: JSON.stringify({ text }) }
    case 'wecom':
      return { url, headers, body: JSON.stringify({ msgtype: 'text', text: { content: text } }) }
    case 'feishu': {
      // Feishu/Lark: the HMAC's key is "timestamp\nsecret" and its message empty.
      const sign = secret === null ? {} : { timestamp: String(seconds), sign: createHmac('sha256', `${seconds}\n${secret}`).update('').digest('base64') }
      return { url, headers, body: JSON.stringify({ ...sign, msg_type: 'text', content: { text } }) }
    }
    case 'dingtalk': {
      const signed = new URL(url)
      if (secret !== null) {
        signed.searchParams.set('timestamp', String(now))
        signed.searchParams.set('sign', createHmac('sha256', secret).update(`${now}\n${secret}`).digest('base64'))
      }
      return { url: signed.href, headers, body: JSON.stringify({ msgtype: 'text', text: { content: text } }) }
    }
  }
}

/** A longer answer is cut: it only goes into `last_error`. */
const answerLimit = 300
const deliveryTimeoutMs = 10_000

/** Posts the request; throws unless the receiver took the message. */
export async function postWebhook(kind: WebhookKind, request: WebhookRequest): Promise<void> {
  let response: Response
  try {
    response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(deliveryTimeoutMs), redirect: 'error' })
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, a certificate…) is its cause.
    const cause = (error as { cause?: { message?: string } }).cause?.message
    throw new Error(cause ? `${(error as Error).message}: ${cause}` : String(error))
  }
  const answer = (await response.text()).slice(0, answerLimit)
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${answer}`)
  if (kind === 'feishu' || kind === 'dingtalk' || kind === 'wecom') {
    // Feishu answers {code: 0}, DingTalk and WeCom {errcode: 0}.
    let code: unknown = 0
    try {
      const parsed = JSON.parse(answer) as { code?: unknown; errcode?: unknown; StatusCode?: unknown }
      code = parsed.code ?? parsed.errcode ?? parsed.StatusCode ?? 0
    } catch {
      // Not JSON: a proxy's page; the status said it was taken.
    }
    if (code !== 0) throw new Error(`refused: ${answer}`)
  }
}
