/**
 * Every page of the operator console, as declared in app/routes.ts (docs/decisions/115-operator-console.md):
 * anyone but an admin — signed out, a normal or team user, a caller holding an API key or an
 * OAuth client's token — gets the same bare 404 on every address under /admin, sees nothing that
 * says a console exists, and changes nothing by posting its forms. An admin gets the pages.
 */
import { parse } from 'node-html-parser'
import { beforeAll, expect, it } from 'vitest'
import routes from '../../app/routes.ts'
import { apiKeyEndpoints } from '../../relay/contract/api-keys.ts'
import { describeEachDatabase } from '../fixtures/databases.ts'
import { databaseFingerprint } from '../fixtures/fingerprint.ts'
import { codeFlowTokens, registerClient } from '../fixtures/oauth.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { portalOrigin, Visitor } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

let target: TestRelay | undefined
const { handle, signedIn } = portalOverRelay(() => target!)

/** Every address the console's layout serves, parameters filled in, plus one it does not have. */
function consolePaths(): string[] {
  return [...consoleRoutes().map(({ path }) => path), '/admin/no-such-page/deeper']
}

function consoleRoutes(): Array<{ path: string; file: string }> {
  const console = routes.find((entry) => entry.file === 'routes/admin/layout.tsx')
  if (!console?.children?.length) throw new Error('no console layout in app/routes.ts')
  return console.children.map((entry) => ({ path: `/${entry.path!.replace(/:\w+/g, '1').replace('*', 'no-such-page')}`, file: entry.file }))
}

/** Downloads (resource routes, `.ts` modules without a page): refused with the 404 alone (the layout's `data(null)`), as any download is. */
const downloads = new Set(consoleRoutes().filter(({ file }) => !file.endsWith('.tsx')).map(({ path }) => path))

/** What would tell a visitor the console is there: its navigation, its name in any language, a link into it. */
const hints = ['admin-nav', '运营控制台', 'Operator console', 'オペレーターコンソール', 'href="/admin']

/**
 * What a reader sees: the body's text and links, scripts left out. The hydration data names the
 * route modules the address matched, like any route's public JavaScript (docs/decisions/115-operator-console.md).
 */
function visible(html: string, what: string): string {
  const body = parse(html).querySelector('body')
  if (!body) throw new Error(`${what}: no page but ${html.slice(0, 200)}`)
  for (const hidden of body.querySelectorAll('script, template, [hidden]')) hidden.remove()
  return `${body.structuredText}\n${body.querySelectorAll('a[href]').map((a) => a.getAttribute('href')).join(' ')}`
}

describeEachDatabase('operator console pages', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  const typed = async (type: 'normal' | 'team' | 'admin') => {
    const account = await ctx.signUp()
    await ctx.relay.db.updateTable('users').set({ user_type: type }).where('username', '=', account.username).execute()
    return account
  }

  it('answers every console address with the same bare 404 to anyone but an admin, and posting changes nothing', async () => {
    const paths = consolePaths()
    expect(paths).toContain('/admin/packages')
    expect(paths).toEqual(expect.arrayContaining(['/admin/calls', '/admin/calls/export', '/admin/calls/1']))
    const normal = await typed('normal')
    const operator = await typed('admin')
    const apiKey = (await ctx.call(apiKeyEndpoints.create, { token: normal.login.access_token, body: { name: 'k' } })).key
    const oauthToken = (await codeFlowTokens(ctx, operator.login.access_token, await registerClient(ctx))).access_token
    const visitors: Array<[string, Visitor, Record<string, string>]> = [
      ['signed out', new Visitor(handle), {}],
      ['normal user', await signedIn(normal), {}],
      ['team user', await signedIn(await typed('team')), {}],
      ['API key', new Visitor(handle), { authorization: `Bearer ${apiKey}` }],
      ['OAuth token', new Visitor(handle), { authorization: `Bearer ${oauthToken}` }],
    ]
    // The sign-ins queued new-device notices, which the relay's sender delivers in the background:
    // once they are out, the fingerprint changes only by what the requests below do.
    const undelivered = () => ctx.relay.db.selectFrom('mail_queue').select('id').where('status', 'in', ['pending', 'sending']).execute()
    await expect.poll(async () => (await undelivered()).length, { timeout: 10_000 }).toBe(0)
    const before = await databaseFingerprint(ctx.relay.db)

    for (const [who, visitor, headers] of visitors) {
      const request = (path: string, init: RequestInit = {}) =>
        handle(new Request(new URL(path, portalOrigin), { ...init, redirect: 'manual', headers: { cookie: visitor.cookieHeader(), ...headers, ...init.headers } }))
      const reference = visible(await (await request('/admin/no-such-page')).text(), `${who} GET /admin/no-such-page`)
      for (const path of paths) {
        const page = await request(path)
        expect(page.status, `${who} GET ${path}`).toBe(404)
        const html = await page.text()
        for (const hint of hints) expect(html, `${who} GET ${path}`).not.toContain(hint)
        if (downloads.has(path)) expect(html, `${who} GET ${path}`).toBe('null')
        else expect(visible(html, `${who} GET ${path}`), `${who} GET ${path}`).toBe(reference)
        // A form posted as the console's pages would post it (the create forms, one-button actions).
        const posted = await request(path, {
          method: 'POST',
          body: new URLSearchParams({ intent: 'remove', id: '1', code: 'MATRIX', kind: 'personal', name: 'x', package_code: 'TEAM', owner: normal.username }),
          headers: { origin: portalOrigin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
        })
        expect(posted.status, `${who} POST ${path}`).toBe(404)
      }
    }
    expect(await databaseFingerprint(ctx.relay.db)).toEqual(before)

    // The control: the same pages open for an admin.
    const admin = await signedIn(operator)
    for (const path of paths.filter((p) => !p.includes('/1') && !p.includes('no-such-page') && p !== '/admin' && !downloads.has(p))) {
      const page = await admin.get(path)
      expect(page.status, `admin GET ${path}`).toBe(200)
      expect(await page.text()).toContain('admin-nav')
    }
    // Five callers by sixteen addresses, each a page render and a post.
  }, 180_000)
})
