import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signatureOf, webhookRequest, type AlertEnvelope } from './formats.ts'

const alert: AlertEnvelope = {
  id: '7',
  event: 'circuit_open',
  phase: 'firing',
  incident_id: '5',
  subject: 'anthropic · api.example.com',
  message: { title: 'Provider anthropic · api.example.com circuit open', text: 'It failed repeatedly; calls skip it for now.' },
  details: { provider: 'anthropic · api.example.com' },
  opened_at: Date.UTC(2026, 10, 28, 10, 0, 0),
  resolved_at: null,
}
const now = Date.UTC(2026, 10, 28, 10, 0, 5)
const text = `${alert.message.title}\n${alert.message.text}`

describe('webhook formats', () => {
  it('signs JSON as t=<unix>,v1=<HMAC-SHA256 of "t.body">', () => {
    const request = webhookRequest('json', 'https://ops.example.com/hook', 'whsec_test', alert, now)
    expect(request.headers['x-relay-signature']).toBe(`t=1795860005,v1=${createHmac('sha256', 'whsec_test').update(`1795860005.${request.body}`).digest('hex')}`)
    expect(signatureOf('whsec_test', 1795860005, request.body)).toBe(request.headers['x-relay-signature'])
    expect(JSON.parse(request.body)).toEqual({
      id: '7',
      event: 'circuit_open',
      phase: 'firing',
      incident_id: '5',
      subject: alert.subject,
      title: alert.message.title,
      text: alert.message.text,
      details: alert.details,
      opened_at: '2026-11-28T10:00:00.000Z',
      resolved_at: null,
    })
  })

  it("writes Slack's, WeCom's, Feishu's and DingTalk's text messages, with the chat tools' own signatures when there is a secret", () => {
    expect(JSON.parse(webhookRequest('slack', 'https://hooks.slack.com/services/T/B/X', null, alert, now).body)).toEqual({ text })
    expect(JSON.parse(webhookRequest('wecom', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=K', null, alert, now).body)).toEqual({ msgtype: 'text', text: { content: text } })

    expect(JSON.parse(webhookRequest('feishu', 'https://open.feishu.cn/open-apis/bot/v2/hook/H', null, alert, now).body)).toEqual({ msg_type: 'text', content: { text } })
    const feishu = JSON.parse(webhookRequest('feishu', 'https://open.feishu.cn/open-apis/bot/v2/hook/H', 'feishu-secret', alert, now).body)
    expect(feishu).toEqual({ timestamp: '1795860005', sign: createHmac('sha256', '1795860005\nfeishu-secret').update('').digest('base64'), msg_type: 'text', content: { text } })

    const plain = webhookRequest('dingtalk', 'https://oapi.dingtalk.com/robot/send?access_token=A', null, alert, now)
    expect(plain.url).toBe('https://oapi.dingtalk.com/robot/send?access_token=A')
    const signed = new URL(webhookRequest('dingtalk', 'https://oapi.dingtalk.com/robot/send?access_token=A', 'SEC123', alert, now).url)
    expect(Object.fromEntries(signed.searchParams)).toEqual({ access_token: 'A', timestamp: String(now), sign: createHmac('sha256', 'SEC123').update(`${now}\nSEC123`).digest('base64') })
    expect(JSON.parse(plain.body)).toEqual({ msgtype: 'text', text: { content: text } })
  })
})
