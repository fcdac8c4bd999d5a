/**
 * The subscription screen (docs/product.md): the current package (personal or team), the team and
 * its members, the history, and two two-step flows: redeem (validate → confirm, with the
 * replace-active-package warning) and team join (validate → comparison → join, irreversible).
 * Each step is a real form; the next step is rendered from the action's data, the validated
 * code travelling in a hidden input, so both flows work without JavaScript. A link
 * `/subscription?team_code=…` opens the join flow at its comparison step.
 */
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, type RouterContextProvider } from 'react-router'
import type { Route } from './+types/route'
import { endpoints, pageDefaults } from '#relay/contract/index.ts'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n, getLocale } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal, type RefusalMessages } from '#app/utils/forms.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import type { RelayClient } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { subscriptionFormSchema, subscriptionIntents, teamFormSchema, type SubscriptionIntent } from './forms.ts'
import { CurrentSubscription } from './current-plan.tsx'
import { HistoryCard } from './history-card.tsx'
import { JoinTeamCard } from './join-team-card.tsx'
import { RedeemCard } from './redeem-card.tsx'
import type { StepData } from './steps.ts'
import { TeamCard } from './team-card.tsx'
import { numberFormat } from '#app/utils/intl-formats.ts'

const redeemMessages = {
  validate: { failed: 'subscription:redeem.validateFailed', network: 'subscription:redeem.validateNetwork', fieldOf: { redeem_code_invalid: 'redeemCode' } },
  redeem: { failed: 'subscription:redeem.failed', fieldOf: { redeem_code_invalid: 'redeemCode' } },
} satisfies Record<string, RefusalMessages>

const teamFieldOf = { team_code_format: 'teamCode', team_code_invalid: 'teamCode', team_inactive: 'teamCode' }
const teamMessages = {
  validate: { failed: 'subscription:join.invalid', network: 'subscription:join.validateNetwork', fieldOf: teamFieldOf },
  join: { failed: 'subscription:join.failed', network: 'subscription:join.network', fieldOf: teamFieldOf },
  caps: { failed: 'subscription:team.capsFailed' },
} satisfies Record<string, RefusalMessages>

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const relay = getRelay(context)
  const teamLinkCode = new URL(request.url).searchParams.get('team_code')
  const [info, team, history, teamLink] = await Promise.all([
    relay.call(endpoints.accounts.info),
    relay.call(endpoints.teams.info),
    relay.call(endpoints.subscriptions.history, { query: { page: pageParam(request), pageSize: pageDefaults.pageSize } }),
    // An invitation link opens the join flow at the step after "validate".
    teamLinkCode === null ? null : validateTeam(relay, teamLinkCode).then((step) => step.data),
  ])
  return { title: getI18n(context).t('subscription:title'), points: info.points, team, history, teamLink }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const intent = subscriptionIntents.find((known) => known === formData.get('intent'))
  if (!intent) throw data(null, { status: 400 })
  const relay = getRelay(context)
  if (intent === 'validate-team') return validateTeam(relay, formData.get('teamCode'))

  const submission = parseWithZod(formData, { schema: subscriptionFormSchema })
  if (submission.status !== 'success') return step(intent, invalid(submission))
  const form = submission.value
  if (form.intent === 'member-caps') {
    try {
      await relay.call(endpoints.teams.setMemberCaps, {
        params: { id: form.memberId },
        body: { hourly_points_cap: form.hourlyCap ?? null, daily_points_cap: form.dailyCap ?? null },
      })
      return redirectWithToast('/subscription', { type: 'success', key: 'subscription:team.capsSaved' })
    } catch (error) {
      return step(intent, relayRefusal(submission, error, teamMessages.caps))
    }
  }
  if (form.intent === 'validate-redeem' || form.intent === 'redeem') {
    const { redeemCode } = form
    try {
      if (form.intent === 'validate-redeem') {
        const check = await relay.call(endpoints.subscriptions.validateRedeemCode, { body: { redeem_code: redeemCode } })
        return step(intent, data({ result: submission.reply() }), { code: redeemCode, check, formKey: newFormKey() })
      }
      const redeemed = await relay.call(endpoints.subscriptions.redeemCode, { body: { redeem_code: redeemCode }, ...formKeyOf(formData) })
      return redirectWithToast('/subscription', {
        type: 'success',
        key: redeemed.package_kind === 'topup' ? 'subscription:redeem.topupSuccess' : 'subscription:redeem.success',
        values: { name: redeemed.package_name, points: formatNumber(context, redeemed.points_gained) },
      })
    } catch (error) {
      return step(intent, relayRefusal(submission, error, intent === 'redeem' ? redeemMessages.redeem : redeemMessages.validate))
    }
  }
  const { teamCode } = form
  try {
    const joined = await relay.call(endpoints.teams.join, { body: { team_code: teamCode }, ...formKeyOf(formData) })
    return redirectWithToast('/subscription', { type: 'success', key: 'subscription:join.success', values: { name: joined.team_name } })
  } catch (error) {
    return step(intent, relayRefusal(submission, error, teamMessages.join))
  }
}

/** Adds the intent (which form answered) and the next step's data to a form reply. */
function step(
  intent: SubscriptionIntent,
  reply: { data: { result: SubmissionResult<string[]> }; init: ResponseInit | null },
  next: Omit<StepData, 'intent' | 'result'> = {},
) {
  return data<StepData>({ intent, result: reply.data.result, ...next }, reply.init ?? undefined)
}

/** Step one of the join flow, shared by the form and the invitation link: check the code, preview the team. */
async function validateTeam(relay: RelayClient, code: FormDataEntryValue | null) {
  const formData = new FormData()
  if (typeof code === 'string') formData.set('teamCode', code)
  const submission = parseWithZod(formData, { schema: teamFormSchema })
  if (submission.status !== 'success') return step('validate-team', invalid(submission))
  const teamCode = submission.value.teamCode
  const params = { team_code: teamCode }
  try {
    // The two calls (relay/contract/subscriptions.ts): validate answers the code's refusal reasons, preview the comparison.
    const [, preview] = await Promise.all([
      relay.call(endpoints.teams.validate, { params }),
      relay.call(endpoints.teams.preview, { params }),
    ])
    return step('validate-team', data({ result: submission.reply() }), { code: teamCode, preview, formKey: newFormKey() })
  } catch (error) {
    return step('validate-team', relayRefusal(submission, error, teamMessages.validate))
  }
}

function formatNumber(context: Readonly<RouterContextProvider>, value: number): string {
  return numberFormat(getLocale(context)).format(value)
}

export default function Subscription({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('subscription')
  const { points, team, history } = loaderData
  const redeemStep = actionData?.intent === 'validate-redeem' || actionData?.intent === 'redeem' ? actionData : undefined
  const teamStep =
    actionData?.intent === 'validate-team' || actionData?.intent === 'join-team' ? actionData : (loaderData.teamLink ?? undefined)
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('subtitle')} />
      <CurrentSubscription points={points} teamName={team.team?.name ?? null} />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-2">
        <RedeemCard step={redeemStep} teamName={team.team?.name ?? null} />
        <JoinTeamCard step={teamStep} teamName={team.team?.name ?? null} />
      </div>
      {team.team ? <TeamCard team={team.team} members={team.members} capsStep={actionData?.intent === 'member-caps' ? actionData : undefined} /> : null}
      <HistoryCard history={history} />
    </div>
  )
}
