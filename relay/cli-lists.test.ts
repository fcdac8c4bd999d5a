import { pointsEndpoints } from './contract/points.ts'
import { ticketEndpoints } from './contract/tickets.ts'
import { expect, it } from 'vitest'
import { commands } from './cli.ts'
import { describeEachDatabase } from '../tests/fixtures/databases.ts'
import { runOperatorCli } from '../tests/fixtures/operator-cli.ts'
import { makeTeam, quickUser } from '../tests/fixtures/points.ts'

/** The header row each list command prints above its rows, whether or not it has any. */
const headers: Record<string, RegExp> = {
  'announcement list': /^id +level +from \(UTC\) +until \(UTC\) +state +message \(zh\)$/,
  'client list': /^client_id\tkind\tname\tredirect URIs$/,
  'incident list': /^id +started \(UTC\) +state +title$/,
  'model-cost list': /^model +kind +points per call, or per million tokens: input \/ output \/ cache read \/ cache write 5m \/ 1h, then per web search$/,
  'package list': /^code +kind +listing +limit +per hour +days +price +name \(zh \/ en \/ ja\)$/,
  'provider list': /^id +kind +prio\. +status +state +key +base URL +models$/,
  'resource list': /^id +order +title +url$/,
  'team list': /^id +package +status +ends +members +owner +name$/,
  'ticket list': /^number +status +prio\. +type +owner +assignee +updated \(UTC\) +title$/,
  'webhook list': /^id +kind +lang +signed +name +address$/,
}

describeEachDatabase('the operator CLI’s lists', (ctx) => {
  const admin = (...argv: string[]) => runOperatorCli(ctx, ...argv)

  it('every list command prints a header row, with rows and without', async () => {
    expect(commands.map((c) => c.name).filter((name) => name.endsWith(' list')).sort()).toEqual(Object.keys(headers).sort())
    const lines = async (command: string) => {
      const run = await admin(...command.split(' '))
      expect(run).toMatchObject({ code: 0, stderr: '' })
      return run.stdout.split('\n')
    }
    for (const [command, header] of Object.entries(headers)) expect(await lines(command), command).toContainEqual(expect.stringMatching(header))

    const owner = await quickUser(ctx)
    await makeTeam(ctx, owner)
    await ctx.call(ticketEndpoints.create, { token: owner.token, body: { type: 'other', title: 'Hello', content: 'Hi' } })
    await admin('client', 'create', '--name', 'Acme', '--redirect-uri', 'https://acme.example/cb')
    await admin('provider', 'add', '--kind', 'openai', '--base-url', 'https://api.openai.example/v1', '--key', 'sk-test-0123456789abcdef')
    await admin('resource', 'add', '--title', 'Status', '--url', 'https://status.example.com')
    await admin('incident', 'add', '--title', 'Slow answers')
    await admin('announcement', 'create', '--level', 'info', '--message', 'Maintenance', '--until', '2999-01-01 00:00')
    await admin('webhook', 'add', '--name', 'team chat', '--kind', 'slack', '--url', 'https://hooks.slack.example/services/T000/B000/XXXX', '--language', 'en')
    for (const [command, header] of Object.entries(headers)) {
      const output = await lines(command)
      const at = output.findIndex((line) => header.test(line))
      expect(at, command).toBeGreaterThanOrEqual(0)
      // Rows follow the header, their columns where the header's are.
      const row = output[at + 1]!
      expect(row, command).toMatch(/\S/)
      if (command === 'client list') continue // tab-separated, for scripts
      const second = output[at]!.search(/ {2}\S/) + 2
      expect(row.slice(0, second).trimEnd().length, `${command}: the first column ends before the second heading`).toBeLessThanOrEqual(second - 2)
      expect(row.slice(second - 2).trim(), command).not.toBe('')
    }
  })

  it('removes a model’s cost', async () => {
    const model = `gone-${ctx.unique()}`
    expect((await admin('model-cost', 'set', '--model', model, '--kind', 'fixed', '--points-per-call', '2')).code).toBe(0)
    expect((await admin('model-cost', 'list')).stdout).toContain(model)
    expect(await admin('model-cost', 'remove', '--model', model)).toMatchObject({ code: 0, stdout: `removed ${model}` })
    expect((await admin('model-cost', 'list')).stdout).not.toContain(model)
    const user = await quickUser(ctx)
    const costs = (await ctx.call(pointsEndpoints.modelCosts, { token: user.token })).items
    expect(costs.map((c) => c.model)).not.toContain(model)
    expect(await admin('model-cost', 'remove', '--model', model)).toMatchObject({ code: 1, stderr: `model-cost remove: no cost for ${model} (see model-cost list)` })
  })
})
