/** Operator commands for the alert webhooks (docs/operating.md "Alerts"). */
import { setTimeout as wait } from 'node:timers/promises'
import { z } from 'zod'
import { cliOperator } from '../audit/audit-log.ts'
import { defineCommand, type Command } from '../cli-registry.ts'
import { addWebhookBody, webhookKinds } from '../contract/alerts.ts'
import { isId } from '../contract/ids.ts'
import { contentLanguages } from '../contract/languages.ts'
import { listDeliveries, testWebhookAsOperator } from './deliveries.ts'
import { activeWebhooks, addWebhookAsOperator, removeWebhookAsOperator, toWebhook } from './webhooks.ts'

const webhookArgument = { name: 'id', description: 'webhook id (see webhook list)' } as const

/** An id that cannot be one is simply not found. */
function webhookId(id: string): string {
  if (!isId(id)) throw new Error(`no webhook ${id}`)
  return id
}

/** How long `webhook test` waits for a relay to deliver its message. */
const testWaitMs = 30_000

export const webhookCommands: Command[] = [
  defineCommand({
    name: 'webhook add',
    summary: 'Register an alert webhook, print its id (and, for json, the signing secret, shown once)',
    options: {
      name: { description: 'what the console calls it', schema: z.string() },
      kind: { description: `${webhookKinds.join(' | ')} (json: signed JSON; the others: the chat tool's incoming webhook)`, schema: z.enum(webhookKinds) },
      url: { description: "the receiver's address (for Slack, WeCom, DingTalk it holds their token: stored sealed)", schema: z.string() },
      secret: { description: 'json: the signing secret (default: made for you); feishu, dingtalk: the bot\'s signature secret, if it has one', schema: z.string().optional() },
      language: { description: `the messages' language: ${contentLanguages.join(' | ')} (default zh)`, schema: z.enum(contentLanguages).optional() },
    },
    async run(values, { services, print }) {
      const input = addWebhookBody.safeParse({ name: values.name, kind: values.kind, url: values.url, secret: values.secret, language: values.language })
      // Never echo the input: the address and the secret are secrets.
      if (!input.success) throw new Error(input.error.issues.map((issue) => `--${String(issue.path[0])}: ${issue.message}`).join('; '))
      const webhook = await addWebhookAsOperator(services, cliOperator(), input.data)
      print(webhook.id)
      if (webhook.secret) print(`signing secret (shown once): ${webhook.secret}`)
    },
  }),

  defineCommand({
    name: 'webhook list',
    summary: 'Every alert webhook: id, kind, language, signed or not, name, masked address',
    options: {},
    async run(_values, { services, print }) {
      const webhooks = (await activeWebhooks(services.db)).map(toWebhook)
      const id = Math.max(2, ...webhooks.map((w) => w.id.length))
      print(['id'.padEnd(id), 'kind'.padEnd(8), 'lang', 'signed', 'name', 'address'].join('  '))
      for (const w of webhooks) print([w.id.padEnd(id), w.kind.padEnd(8), w.language.padEnd(4), (w.signed ? 'yes' : 'no').padEnd(6), w.name, w.url_hint].join('  '))
    },
  }),

  defineCommand({
    name: 'webhook remove',
    summary: 'Remove an alert webhook; its messages not yet delivered are dropped',
    argument: webhookArgument,
    options: {},
    async run({ id }, { services, print }) {
      await removeWebhookAsOperator(services, cliOperator(), webhookId(id))
      print(`webhook ${id} removed`)
    },
  }),

  defineCommand({
    name: 'webhook test',
    summary: 'Queue a test message to a webhook, wait (30 s at most) for a relay to deliver it, print the outcome',
    argument: webhookArgument,
    options: {},
    async run({ id }, { services, print }) {
      const queued = await testWebhookAsOperator(services, cliOperator(), webhookId(id))
      for (const started = Date.now(); Date.now() - started < testWaitMs; await wait(250)) {
        const [delivery] = (await listDeliveries(services.db, { page: 1, pageSize: 1 }, queued.id)).items
        if (delivery?.status === 'sent') return print(`delivered (delivery ${queued.id})`)
        if (delivery?.last_error) return print(`not delivered yet, retried with back-off: ${delivery.last_error} (delivery ${queued.id})`)
      }
      print(`queued as delivery ${queued.id}, not sent within 30 s: is a relay running on this database?`)
    },
  }),
]
