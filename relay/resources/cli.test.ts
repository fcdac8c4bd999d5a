import { resourceEndpoints } from '../contract/resources.ts'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'

describeEachDatabase('resource CLI', (ctx) => {
  const admin = (...argv: string[]) => runOperatorCli(ctx, ...argv)

  it('adds, lists and removes links that users then see', async () => {
    const { login } = await ctx.signUp()
    const added = await admin('resource', 'add', '--title', 'Docs', '--url', 'https://docs.example.com', '--description', 'API reference', '--order', '2')
    expect(added.code).toBe(0)
    expect(added.stdout).toMatch(/^\d{17,19}$/)
    const first = await admin('resource', 'add', '--title', 'Status', '--url', 'https://status.example.com')
    expect((await admin('resource', 'list')).stdout).toMatch(new RegExp(`^id +order +title +url\\n${first.stdout} +0 {2}Status[\\s\\S]*${added.stdout} +2 {2}Docs[\\s\\S]*2 link\\(s\\)$`))

    const seen = await ctx.call(resourceEndpoints.list, { token: login.access_token })
    expect(seen.items).toEqual([
      { id: first.stdout, title: 'Status', url: 'https://status.example.com', description: null, sort_order: 0 },
      { id: added.stdout, title: 'Docs', url: 'https://docs.example.com', description: 'API reference', sort_order: 2 },
    ])

    expect(await admin('resource', 'remove', added.stdout)).toMatchObject({ code: 0, stdout: `removed ${added.stdout}` })
    expect((await ctx.call(resourceEndpoints.list, { token: login.access_token })).count).toBe(1)
    const again = await admin('resource', 'remove', added.stdout)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('no resource link')
  })

  it('refuses links that are not http(s) or have no title', async () => {
    const bad = await admin('resource', 'add', '--title', 'x', '--url', 'javascript:alert(1)')
    expect(bad.code).toBe(1)
    expect((await admin('resource', 'add', '--url', 'https://example.com')).code).toBe(2)
    expect((await admin('resource', 'add', '--title', ' ', '--url', 'https://example.com')).code).toBe(1)
    expect((await admin('resource', 'remove')).code).toBe(2)
  })
})
