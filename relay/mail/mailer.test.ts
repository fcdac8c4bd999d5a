import { accountEndpoints } from '../contract/accounts.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../tests/fixtures/databases.ts'
import { startTestRelay, type TestRelay } from '../../tests/fixtures/relay-harness.ts'
import { startSmtpSink } from '../../tests/fixtures/smtp-sink.ts'
import { createLogger } from '../logger.ts'
import { createLogMailer, createSmtpMailer } from './mailer.ts'

describe('mailers', () => {
  it('without SMTP, logs exactly one line per mail with the recipient and what it says', async () => {
    const lines: string[] = []
    const mailer = createLogMailer(createLogger('info', (line) => lines.push(line)))
    await mailer.send({ to: 'a@example.com', subject: 's', text: 'long\nbody', summary: 'register code 123456' })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/ INFO mail not sent \(no SMTP_URL\) to=a@example\.com summary="register code 123456"$/)
  })

  it('over SMTP, delivers UTF-8 subject and body, readable from the sink over HTTP', async () => {
    const sink = await startSmtpSink({ httpPort: 0 })
    const mailer = createSmtpMailer(sink.url, 'Relay Portal <no-reply@localhost>')
    try {
      await mailer.send({ to: 'Someone@Example.com', subject: '注册验证码 / code', text: '您的验证码是：654321\nline two', summary: '' })
      const response = await fetch(`http://127.0.0.1:${sink.httpPort}/messages?to=someone@example.com`)
      const messages = (await response.json()) as Array<{ subject: string; text: string; from: string }>
      expect(messages).toHaveLength(1)
      expect(messages[0]).toMatchObject({ from: 'no-reply@localhost', subject: '注册验证码 / code', text: '您的验证码是：654321\nline two' })
      expect(await (await fetch(`http://127.0.0.1:${sink.httpPort}/messages?to=other@example.com`)).json()).toEqual([])
      await fetch(`http://127.0.0.1:${sink.httpPort}/messages`, { method: 'DELETE' })
      expect(sink.messages()).toEqual([])
    } finally {
      mailer.close()
      await sink.close()
    }
  })
})

describe('a relay whose SMTP server is down', () => {
  let database: TestDatabase
  let relay: TestRelay

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    // Port 9 (discard) on loopback: nothing listens, so the connection is refused.
    relay = await startTestRelay(database, { smtpUrl: 'smtp://127.0.0.1:9' })
  })
  afterAll(async () => {
    await relay.close()
    await database.dispose()
  })

  it('answers 503 unavailable to a code request and logs the failure', async () => {
    const reply = await relay.request('POST', accountEndpoints.sendRegisterCode.path, { body: { email: 'down@example.com' } })
    expect(reply.status).toBe(503)
    expect(reply.body.error.details.reason).toBe('unavailable')
    expect(relay.logs.some((line) => line.includes('ERROR mail delivery failed') && line.includes('to=down@example.com'))).toBe(true)
  })
})
