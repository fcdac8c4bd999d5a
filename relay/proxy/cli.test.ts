import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { ProviderKeyBox } from './provider-keys.ts'
import { enabledProviders, providersInOrder } from './providers.ts'

describeEachDatabase('provider commands', (ctx) => {
  const secret = 'sk-ant-api03-verysecretpart-0123456789-wxyz'

  it('adds a provider whose key is sealed at rest, listed masked, never printed again', async () => {
    const added = await runOperatorCli(
      ctx,
      'provider', 'add', '--kind', 'anthropic', '--base-url', 'https://api.anthropic.example/', '--key', secret, '--models', 'claude-*, cli-*', '--priority', '5',
    )
    expect(added).toMatchObject({ code: 0, stderr: '' })
    const id = added.stdout.trim()
    expect(id).toMatch(/^\d+$/)

    const listed = await runOperatorCli(ctx, 'provider', 'list')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`${id}  anthropic      5  enabled   closed  sk-ant-…wxyz    https://api.anthropic.example  claude-*,cli-*`)
    expect(listed.stdout).not.toContain('verysecretpart')

    const row = await ctx.relay.db.selectFrom('proxy_providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain('verysecretpart')
    // The relay opens it with the JWT secret it runs with, and with nothing else.
    const open = async (secrets: string[], onUnreadable: (id: string) => void = () => {}) =>
      providersInOrder(await enabledProviders(ctx.relay.db, 'anthropic'), new ProviderKeyBox(secrets), 'cli-model', 'session', onUnreadable)
    expect(await open(ctx.config.jwtSecrets)).toEqual([{ id, kind: 'anthropic', baseUrl: 'https://api.anthropic.example', key: secret, label: 'anthropic · api.anthropic.example', model: 'cli-model' }])
    const unreadable: string[] = []
    expect(await open(['another-secret-another-secret-0123'], (p) => unreadable.push(p))).toEqual([])
    expect(unreadable).toEqual([id])
    // A rotation that keeps the old secret after the new one still opens it.
    expect(await open(['new-secret-new-secret-new-secret-01', ...ctx.config.jwtSecrets])).toHaveLength(1)

    expect(await runOperatorCli(ctx, 'provider', 'disable', id)).toMatchObject({ code: 0, stdout: `provider ${id} disabled` })
    expect(await open(ctx.config.jwtSecrets)).toEqual([])
    expect((await runOperatorCli(ctx, 'provider', 'list')).stdout).toContain(`${id}  anthropic      5  disabled`)
    expect(await runOperatorCli(ctx, 'provider', 'enable', id)).toMatchObject({ code: 0, stdout: `provider ${id} enabled` })
    expect(await open(ctx.config.jwtSecrets)).toHaveLength(1)
    // The same API, address and key again is refused, naming the provider that has them.
    expect(await runOperatorCli(ctx, 'provider', 'add', '--kind', 'anthropic', '--base-url', 'https://api.anthropic.example', '--key', secret)).toMatchObject({
      code: 1,
      stderr: `provider add: provider ${id} already has this API, base URL and key: change that one instead`,
    })
    const otherKind = await runOperatorCli(ctx, 'provider', 'add', '--kind', 'openai', '--base-url', 'https://api.anthropic.example', '--key', secret)
    expect(otherKind.code).toBe(0)
    expect((await runOperatorCli(ctx, 'provider', 'remove', otherKind.stdout.trim())).code).toBe(0)
    expect(await runOperatorCli(ctx, 'provider', 'remove', id)).toMatchObject({ code: 0, stdout: `provider ${id} removed` })
    expect(await open(ctx.config.jwtSecrets)).toEqual([])
    expect(await runOperatorCli(ctx, 'provider', 'remove', id)).toMatchObject({ code: 1, stderr: `provider remove: no provider ${id}` })
    expect(await runOperatorCli(ctx, 'provider', 'disable', 'nope')).toMatchObject({ code: 1, stderr: 'provider disable: no provider nope' })
  })

  it('refuses a bad provider without echoing its key', async () => {
    // 2: the options themselves are wrong (usage printed); 1: the provider is.
    const cases: Array<[number, string[]]> = [
      [2, ['--kind', 'mistral', '--base-url', 'https://x.example', '--key', secret]],
      [2, ['--kind', 'openai', '--base-url', 'https://api.openai.com/v1', '--key', secret, '--models', 'gpt 4o!']],
      [1, ['--kind', 'anthropic', '--base-url', 'https://api.anthropic.com/v1', '--key', secret]],
      [1, ['--kind', 'gemini', '--base-url', 'https://generativelanguage.googleapis.com/v1beta', '--key', secret]],
      [1, ['--kind', 'openai', '--base-url', 'ftp://api.openai.com', '--key', secret]],
      [1, ['--kind', 'openai', '--base-url', 'https://user:pass@api.openai.com/v1', '--key', secret]],
      [1, ['--kind', 'openai', '--base-url', 'https://api.openai.com/v1', '--key', 'short']],
    ]
    for (const [code, args] of cases) {
      const run = await runOperatorCli(ctx, 'provider', 'add', ...args)
      expect(run.code).toBe(code)
      if (code === 1) expect(run.stderr).toMatch(/^provider add: /)
      expect(run.stderr).not.toContain('verysecretpart')
    }
    expect(await ctx.relay.db.selectFrom('proxy_providers').selectAll().execute()).toEqual([])
  })
})
