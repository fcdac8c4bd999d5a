/**
 * The dashboard, subscription and points screens as a browser without JavaScript uses them: the
 * production build against a real relay over HTTP, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL. Forms are posted as the page renders them; every step is an HTML answer or a
 * redirect with a toast.
 */
import { parse } from 'node-html-parser'
import { beforeAll, expect, it } from 'vitest'
import { describeEachDatabase } from '../fixtures/databases.ts'
import { grant, spend } from '../../relay/points/ledger.ts'
import { makeCodes, makeTeam, quickUser, servicesOf } from '../fixtures/points.ts'
import type { TestRelay } from '../fixtures/relay-harness.ts'
import { portalOrigin, textOf, Visitor } from './portal-harness.ts'
import { portalOverRelay } from './portal-over-relay.ts'

/** The relay behind the portal: the suite of the database kind now running. */
let target: TestRelay | undefined
// The address CLI clients are told to use, when the relay's own is internal.
const apiOrigin = 'https://api.portal.test'
const { signedIn } = portalOverRelay(() => target!, { RELAY_PUBLIC_URL: apiOrigin })

/** Follows a redirect the way a browser does, toast cookie included. */
async function follow(visitor: Visitor, response: Response): Promise<string> {
  expect(response.status).toBe(302)
  const page = await visitor.get(response.headers.get('location')!)
  visitor.keep(page)
  expect(page.status).toBe(200)
  return page.text()
}

describeEachDatabase('points screens', (ctx) => {
  beforeAll(() => {
    target = ctx
  })

  it('redeems in two steps, then warns before replacing the active package', async () => {
    const visitor = await signedIn(await ctx.signUp())
    const [first, second] = await makeCodes(ctx, 'PERSONAL', 2)
    expect(textOf(await (await visitor.get('/subscription')).text(), 'current-subscription')).toContain('您还没有套餐')

    // A wrong code: the refusal is shown and what was typed stays.
    const wrong = await visitor.submit('/subscription', { intent: 'validate-redeem', redeemCode: 'WRONG-CODE-0000' })
    expect(wrong.status).toBe(422)
    const wrongHtml = await wrong.text()
    expect(wrongHtml).toContain('兑换码无效或已过期')
    expect(wrongHtml).toContain('value="WRONG-CODE-0000"')

    // Validate: the confirm step, the code in a hidden input, no warning without a package.
    const typed = first!.toLowerCase()
    const check = await visitor.submit('/subscription', { intent: 'validate-redeem', redeemCode: typed })
    expect(check.status).toBe(200)
    const checkHtml = await check.text()
    expect(textOf(checkHtml, 'package-name')).toBe('个人版')
    expect(checkHtml).toMatch(new RegExp(`<input type="hidden" name="redeemCode" value="${typed}"/>`))
    expect(checkHtml).not.toContain('data-testid="replace-warning"')

    const page = await follow(visitor, await visitor.submit('/subscription', { intent: 'redeem', redeemCode: typed }))
    expect(page).toContain('兑换成功：已开通「个人版」，获得 2,400 积分')
    expect(textOf(page, 'current-package')).toBe('个人版')
    expect(textOf(page, 'subscription-history')).toContain('开通')

    // The same code again is used up; a second code warns before confirming.
    const again = await visitor.submit('/subscription', { intent: 'redeem', redeemCode: typed })
    expect(again.status).toBe(422)
    expect(await again.text()).toContain('兑换码无效或已过期')
    const replace = await (await visitor.submit('/subscription', { intent: 'validate-redeem', redeemCode: second! })).text()
    expect(textOf(replace, 'replace-warning')).toContain('当前套餐「个人版」将立即停用，剩余的 2,400 积分将作废')
    expect(replace).toContain('替换当前套餐并兑换')
    const replaced = await follow(visitor, await visitor.submit('/subscription', { intent: 'redeem', redeemCode: second! }))
    expect(replaced).toContain('兑换成功')
    expect(textOf(replaced, 'subscription-history')).toMatch(/续期|升级/)
  })

  it('opens the join flow from an invitation link and shows the team after joining', async () => {
    const owner = await quickUser(ctx)
    const teamCode = await makeTeam(ctx, owner)
    const member = await ctx.signUp()
    const visitor = await signedIn(member)

    const link = await (await visitor.get(`/subscription?team_code=${encodeURIComponent(teamCode)}`)).text()
    expect(link).toContain(`加入「team ${owner.username}」`)
    expect(textOf(link, 'team-comparison')).toContain('积分上限')
    expect(textOf(link, 'join-warning')).toContain('加入团队后不可撤销')
    expect(link).toContain(`<input type="hidden" name="teamCode" value="${teamCode}"/>`)

    const joined = await follow(visitor, await visitor.submit('/subscription', { intent: 'join-team', teamCode }))
    expect(joined).toContain(`欢迎加入团队「team ${owner.username}」！`)
    expect(textOf(joined, 'team-name')).toBe(`team ${owner.username}`)
    const members = textOf(joined, 'team-members')
    expect(members).toContain(owner.username)
    expect(members).toContain(`${member.username} 我`)
    expect(textOf(joined, 'join-team')).toContain('您已是团队')

    const dashboard = await (await visitor.get('/dashboard')).text()
    expect(textOf(dashboard, 'user-type')).toBe('团队用户')
  })

  it('refuses a team code that is not base64 without asking the relay, keeping the input', async () => {
    const visitor = await signedIn(await ctx.signUp())
    const posted = await visitor.submit('/subscription', { intent: 'validate-team', teamCode: 'not base64!' })
    expect(posted.status).toBe(400)
    const html = await posted.text()
    expect(html).toContain('无效的团队代码格式')
    expect(html).toContain('value="not base64!"')
    const linked = await (await visitor.get('/subscription?team_code=%25%25%25')).text()
    expect(linked).toContain('无效的团队代码格式')
  })

  it('shows balance, history pages and the reset request on the points screen', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const [code] = await makeCodes(ctx, 'PERSONAL')
    await follow(visitor, await visitor.submit('/subscription', { intent: 'redeem', redeemCode: code! }))

    const points = await (await visitor.get('/points')).text()
    expect(textOf(points, 'points-balance')).toBe('2,400')
    expect(textOf(points, 'points-package-name')).toBe('个人版')
    expect(textOf(points, 'points-history')).toContain('套餐开通')
    expect(textOf(points, 'model-costs')).toContain('claude-sonnet-4-5')

    // Missing reason: refused by the form schema, the description kept.
    const missing = await visitor.submit('/points', { description: 'a loop used my points' })
    expect(missing.status).toBe(400)
    const missingHtml = await missing.text()
    expect(missingHtml).toContain('请选择原因')
    expect(missingHtml).toContain('a loop used my points</textarea>')

    // At the limit a reset would add nothing: the page says so before and after asking.
    expect(textOf(points, 'reset-at-limit')).toContain('已达到或超过套餐上限')
    const refused = await visitor.submit('/points', { reason: 'misoperation', description: 'a loop used my points' })
    expect(refused.status).toBe(422)
    expect(await refused.text()).toContain('积分余额已达到或超过套餐上限，重置不会增加积分，无需申请')

    await spend(servicesOf(ctx), { userId: account.login.user.id, amount: 16, model: null })
    const spent = await (await visitor.get('/points')).text()
    expect(spent).not.toContain('data-testid="reset-at-limit"')
    const sent = await follow(visitor, await visitor.submit('/points', { reason: 'misoperation', description: 'a loop used my points' }))
    expect(sent).toContain('积分重置申请已自动通过：补充了 16 积分，余额已回到套餐上限')

    // The request is an open ticket unless it was approved at once; the dashboard counts open ones.
    const dashboard = await (await visitor.get('/dashboard')).text()
    expect(textOf(dashboard, 'stat-tickets')).toMatch(/^待处理工单 [01] 查看工单$/)
  })

  it('shows the share of the period\'s points used, also when the balance is above the limit', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const [code] = await makeCodes(ctx, 'PERSONAL')
    await follow(visitor, await visitor.submit('/subscription', { intent: 'redeem', redeemCode: code! }))
    const services = servicesOf(ctx)
    await spend(services, { userId: account.login.user.id, amount: 16, model: null })
    await grant(services, { userId: account.login.user.id, amount: 12_600, reason: 'goodwill' })

    // 16 used, 14,984 left over a 2,400 limit: the limit said "0 % used".
    const points = await (await visitor.get('/points')).text()
    expect(textOf(points, 'points-balance')).toBe('14,984')
    expect(textOf(points, 'points-used')).toContain('16')
    expect(textOf(points, 'points-progress')).toBe('已使用本期积分的 0.1%（16 / 15,000）')
    expect(points).toMatch(/role="progressbar"[^>]*aria-valuemax="15000"[^>]*aria-valuenow="16"/)
  })

  it('renders the dashboard: balance, the 10 days, the invite link and the referral rule', async () => {
    const account = await ctx.signUp()
    const visitor = await signedIn(account)
    const html = await (await visitor.get('/dashboard')).text()
    expect(textOf(html, 'stat-balance')).toContain('积分余额 0')
    expect(textOf(html, 'stat-status')).toContain('未订阅')
    // Without JavaScript the chart is the HTML bars, and the table carries the same 10 days.
    expect(html).toContain('data-testid="chart-bars"')
    expect(parse(html).querySelectorAll('table.sr-only th[scope="row"]')).toHaveLength(10)
    expect(html).toContain(`value="${portalOrigin}/auth/register?invite=${account.login.user.invite_code}"`)
    expect(textOf(html, 'reward-rule')).toContain('10,000 积分')
    expect(html).toContain(`ANTHROPIC_BASE_URL=&quot;${apiOrigin}&quot;`)
  })
})

