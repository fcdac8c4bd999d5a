import { accountEndpoints } from '../contract/accounts.ts'
import { pointsEndpoints } from '../contract/points.ts'
import { subscriptionEndpoints } from '../contract/subscriptions.ts'
import { teamEndpoints } from '../contract/teams.ts'
import { ticketEndpoints } from '../contract/tickets.ts'
import { expect, it } from 'vitest'
import type { ContentLanguage } from '../contract/languages.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'
import { runOperatorCli } from '../../tests/fixtures/operator-cli.ts'
import { makeCodes, makeTeam, quickUser, type PointsUser } from '../../tests/fixtures/points.ts'

/** Every answer naming a package or written by the relay is in the request's language, never two at once. */
describeEachDatabase('texts in the reader’s language', (ctx) => {
  const as = (user: PointsUser, lang?: string) => ({ token: user.token, headers: lang ? { 'accept-language': lang } : undefined })

  it('names the seeded packages in the request’s language wherever an answer names them', async () => {
    const user = await quickUser(ctx)
    const [first, second] = await makeCodes(ctx, 'PERSONAL', 2)
    const check = await ctx.call(subscriptionEndpoints.validateRedeemCode, { ...as(user, 'en-US,en;q=0.9'), body: { redeem_code: first! } })
    expect(check.package).toMatchObject({ name: 'Personal', description: 'For one developer, 100 points every hour' })
    const redeemed = await ctx.call(subscriptionEndpoints.redeemCode, { ...as(user, 'ja'), body: { redeem_code: first! } })
    expect(redeemed.package_name).toBe('パーソナル')
    const replace = await ctx.call(subscriptionEndpoints.validateRedeemCode, { ...as(user, 'en'), body: { redeem_code: second! } })
    expect(replace.current?.package.name).toBe('Personal')

    const names: Record<ContentLanguage, string> = { zh: '个人版', en: 'Personal', ja: 'パーソナル' }
    for (const [lang, name] of Object.entries(names)) {
      expect((await ctx.call(pointsEndpoints.points, as(user, lang))).package?.name).toBe(name)
      const info = await ctx.call(accountEndpoints.info, as(user, lang))
      expect(info.points.package_name).toBe(name)
      expect(info.subscriptions[0]!.package_name).toBe(name)
      expect((await ctx.call(subscriptionEndpoints.history, as(user, lang))).items[0]!.package_name).toBe(name)
    }
    // No language asked for, or none the relay speaks: Chinese, as the portal's default.
    expect((await ctx.call(pointsEndpoints.points, as(user))).package).toMatchObject({ name: '个人版', description: '个人开发者，每小时补充 100 积分' })
    expect((await ctx.call(pointsEndpoints.points, as(user, 'fr-FR'))).package?.name).toBe('个人版')
  })

  it('names a team’s package in the request’s language', async () => {
    const owner = await quickUser(ctx)
    const code = await makeTeam(ctx, owner)
    expect((await ctx.call(teamEndpoints.info, as(owner, 'en'))).team?.package?.name).toBe('Team')
    const member = await quickUser(ctx)
    const params = { team_code: code }
    expect((await ctx.call(teamEndpoints.validate, { params, ...as(member, 'ja') })).package_name).toBe('チーム')
    expect((await ctx.call(teamEndpoints.preview, { params, ...as(member, 'en') })).package.name).toBe('Team')
    const joined = await ctx.call(teamEndpoints.join, { ...as(member, 'en'), body: { team_code: code } })
    expect(joined.package_name).toBe('Team')
  })

  it('takes a name and description per language from the operator, or one for every language', async () => {
    const code = ctx.unique('LANG').toUpperCase()
    const created = await runOperatorCli(
      ctx,
      'package', 'create', '--code', code, '--kind', 'personal', '--points-limit', '500',
      '--name-zh', '入门版', '--name-en', 'Starter', '--name-ja', 'スターター',
      '--description-zh', '试用', '--description-en', 'A trial', '--description-ja', 'お試し',
    )
    expect(created).toMatchObject({ code: 0, stderr: '' })
    expect((await runOperatorCli(ctx, 'package', 'list')).stdout).toMatch(new RegExp(`^${code} +personal +listed +500 .* 入门版 / Starter / スターター$`, 'm'))
    const user = await quickUser(ctx)
    const [redeem] = await makeCodes(ctx, code)
    const check = async (lang: string) => (await ctx.call(subscriptionEndpoints.validateRedeemCode, { ...as(user, lang), body: { redeem_code: redeem! } })).package
    expect(await check('zh')).toMatchObject({ name: '入门版', description: '试用' })
    expect(await check('en')).toMatchObject({ name: 'Starter', description: 'A trial' })
    expect(await check('ja')).toMatchObject({ name: 'スターター', description: 'お試し' })

    const brand = ctx.unique('BRAND').toUpperCase()
    expect((await runOperatorCli(ctx, 'package', 'create', '--code', brand, '--kind', 'personal', '--points-limit', '1', '--name', 'Pro', '--name-zh', '专业版')).code).toBe(0)
    expect((await runOperatorCli(ctx, 'package', 'list')).stdout).toMatch(new RegExp(`^${brand} .* 专业版 / Pro / Pro$`, 'm'))

    const half = await runOperatorCli(ctx, 'package', 'create', '--code', ctx.unique('HALF'), '--kind', 'personal', '--points-limit', '1', '--name-zh', '半', '--name-en', 'Half')
    expect(half).toMatchObject({ code: 1, stderr: expect.stringContaining('--name-ja') })
    const none = await runOperatorCli(ctx, 'package', 'create', '--code', ctx.unique('NONE'), '--kind', 'personal', '--points-limit', '1')
    expect(none).toMatchObject({ code: 1, stderr: expect.stringContaining('--name-zh, --name-en and --name-ja') })
  })

  it('writes the points-reset ticket it opens in the reader’s language, the person’s words as written', async () => {
    const user = await quickUser(ctx)
    const requested = await ctx.call(pointsEndpoints.resetTicket, {
      ...as(user, 'en'),
      body: { reason: 'misoperation', description: 'A script looped overnight' },
    })
    const id = requested.ticket_id
    const texts = {
      zh: ['积分重置申请', '误操作消耗\n\nA script looped overnight'],
      en: ['Points reset request', 'Consumed by mistake\n\nA script looped overnight'],
      ja: ['ポイントリセットの申請', '誤操作による消費\n\nA script looped overnight'],
    }
    for (const [lang, [title, content]] of Object.entries(texts)) {
      expect((await ctx.call(ticketEndpoints.list, as(user, lang))).items[0]).toMatchObject({ id, title, content })
      expect(await ctx.call(ticketEndpoints.detail, { params: { id }, ...as(user, lang) })).toMatchObject({ id, title, content })
    }
    // A ticket a person writes keeps their title, whatever its type.
    const own = await ctx.call(ticketEndpoints.create, {
      ...as(user, 'ja'),
      body: { type: 'pointsReset', title: 'My own title', content: 'My words' },
    })
    expect(own).toMatchObject({ title: 'My own title', content: 'My words' })

    const number = requested.ticket_number
    const listed = await runOperatorCli(ctx, 'ticket', 'list')
    expect(listed.stdout).toMatch(new RegExp(`^${number} .* Points reset request$`, 'm'))
    expect((await runOperatorCli(ctx, 'ticket', 'show', number)).stdout).toContain(': Consumed by mistake\n\nA script looped overnight')
  })
})
