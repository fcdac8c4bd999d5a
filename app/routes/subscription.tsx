/**
 * The subscription screen (docs/product.md): the current package (personal or team), the team and
 * its members, the history, and two two-step flows: redeem (validate → confirm, with the
 * replace-active-package warning) and team join (validate → comparison → join, irreversible).
 * Each step is a real form; the next step is rendered from the action's data, the validated
 * code travelling in a hidden input, so both flows work without JavaScript. A link
 * `/subscription?team_code=…` opens the join flow at its comparison step.
 */
import { CreditCard, History } from 'lucide-react'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Trans, useTranslation } from 'react-i18next'
import { data, Form, Link, type RouterContextProvider } from 'react-router'
import type { Route } from './+types/subscription'
import {
  endpoints,
  pageDefaults,
  type PointsBlock,
  type RedeemCodeCheck,
  type SubscriptionHistory,
  type SubscriptionHistoryItem,
  type TeamInfo,
  type TeamPreview,
} from '#relay/contract/index.ts'
import { CopyField } from '#app/components/copy-button.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { PagedNav } from '#app/components/points/paged-nav.tsx'
import { StatusBadge } from '#app/components/subscription/status-badge.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n, getLocale } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import {
  redeemFormSchema,
  subscriptionFormSchema,
  subscriptionIntents,
  teamFormSchema,
  type SubscriptionIntent,
} from '#app/schemas/points.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid } from '#app/utils/forms.server.ts'
import { flowRefusal, type FlowMessages } from '#app/utils/form-refusal.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import type { RelayClient } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

/** What every step of the two flows answers: the form's state and, after a validation, the next step. */
interface StepData {
  intent: SubscriptionIntent
  result: SubmissionResult<string[]>
  /** The validated code the confirm step carries in a hidden input. */
  code?: string
  check?: RedeemCodeCheck
  preview?: TeamPreview
  /** The confirm step's form key: confirming twice (reload, double click) redeems or joins once. */
  formKey?: string
}

const redeemMessages = {
  validate: { failed: 'subscription:redeem.validateFailed', network: 'subscription:redeem.validateNetwork', fieldOf: { redeem_code_invalid: 'redeemCode' } },
  redeem: { failed: 'subscription:redeem.failed', network: 'errors:network', fieldOf: { redeem_code_invalid: 'redeemCode' } },
} satisfies Record<string, FlowMessages>

const teamFieldOf = { team_code_format: 'teamCode', team_code_invalid: 'teamCode', team_inactive: 'teamCode' }
const teamMessages = {
  validate: { failed: 'subscription:join.invalid', network: 'subscription:join.validateNetwork', fieldOf: teamFieldOf },
  join: { failed: 'subscription:join.failed', network: 'subscription:join.network', fieldOf: teamFieldOf },
} satisfies Record<string, FlowMessages>

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
        key: 'subscription:redeem.success',
        values: { name: redeemed.package_name, points: formatNumber(context, redeemed.points_gained) },
      })
    } catch (error) {
      return step(intent, flowRefusal(submission, error, intent === 'redeem' ? redeemMessages.redeem : redeemMessages.validate))
    }
  }
  const { teamCode } = form
  try {
    const joined = await relay.call(endpoints.teams.join, { body: { team_code: teamCode }, ...formKeyOf(formData) })
    return redirectWithToast('/subscription', { type: 'success', key: 'subscription:join.success', values: { name: joined.team_name } })
  } catch (error) {
    return step(intent, flowRefusal(submission, error, teamMessages.join))
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
    // The two calls of docs/architecture.md §5.6: validate answers the code's refusal reasons, preview the comparison.
    const [, preview] = await Promise.all([
      relay.call(endpoints.teams.validate, { params }),
      relay.call(endpoints.teams.preview, { params }),
    ])
    return step('validate-team', data({ result: submission.reply() }), { code: teamCode, preview, formKey: newFormKey() })
  } catch (error) {
    return step('validate-team', flowRefusal(submission, error, teamMessages.validate))
  }
}

function formatNumber(context: Readonly<RouterContextProvider>, value: number): string {
  return new Intl.NumberFormat(getLocale(context)).format(value)
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
      {team.team ? <TeamCard team={team.team} members={team.members} /> : null}
      <HistoryCard history={history} />
    </div>
  )
}

// ── Current subscription ─────────────────────────────────────────────────────────────────────

function CurrentSubscription({ points, teamName }: { points: PointsBlock; teamName: string | null }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  if (!points.package_name) {
    return (
      <Card aria-labelledby="current-title" data-testid="current-subscription">
        <CardTitle id="current-title">{t('current.title')}</CardTitle>
        <EmptyState icon={CreditCard} title={t('current.empty')} body={t('current.emptyHint')} className="mt-4" />
      </Card>
    )
  }
  const figures: Fact[] = [
    { label: t('current.remaining'), value: format(points.remaining_points) },
    { label: t('current.used'), value: format(points.used_points) },
    { label: t('current.total'), value: format(points.total_points) },
    { label: t('current.hourPoints'), value: t('package.hourPointsValue', { points: format(points.hour_points) }) },
  ]
  return (
    <Card aria-labelledby="current-title" data-testid="current-subscription">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle id="current-title" className="text-sm font-medium text-zinc-500 dark:text-zinc-400">
            {t('current.title')}
          </CardTitle>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xl font-semibold tracking-tight">
            <span data-testid="current-package">{points.package_name}</span>
            <StatusBadge status={points.status} />
            {points.package_kind ? <Badge tone={points.package_kind === 'team' ? 'sky' : 'indigo'}>{t(`kind.${points.package_kind}`)}</Badge> : null}
          </p>
          {teamName ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('current.team', { name: teamName })}</p> : null}
          {points.description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{points.description}</p> : null}
        </div>
        {points.start_timestamp && points.end_timestamp ? (
          <div className="text-sm text-zinc-600 sm:text-right dark:text-zinc-400">
            <p>
              <Trans
                t={t}
                i18nKey="current.periodValue"
                components={{ start: <LocalTime ms={points.start_timestamp} dateOnly />, end: <LocalTime ms={points.end_timestamp} dateOnly /> }}
              />
            </p>
            <p className="mt-0.5 font-medium text-zinc-900 dark:text-zinc-100">{t('current.daysLeft', { count: points.remaining_days })}</p>
          </div>
        ) : null}
      </div>
      <Facts facts={figures} className="mt-5 grid-cols-2 border-t border-zinc-100 pt-5 sm:grid-cols-4 dark:border-zinc-800" />
    </Card>
  )
}

// ── Redeem ───────────────────────────────────────────────────────────────────────────────────

function RedeemCard({ step, teamName }: { step: StepData | undefined; teamName: string | null }) {
  const { t } = useTranslation('subscription')
  return (
    <Card aria-labelledby="redeem-title" data-testid="redeem">
      <CardTitle id="redeem-title">{step?.check ? t('redeem.confirmTitle') : t('redeem.title')}</CardTitle>
      {teamName ? (
        // The relay refuses every redemption by a team member: the team's package is the member's.
        <Notice tone="info" className="mt-4">
          {t('redeem.inTeam', { name: teamName })}
        </Notice>
      ) : step?.check && step.code ? (
        <RedeemConfirm code={step.code} check={step.check} formKey={step.formKey ?? ''} />
      ) : (
        // Mounted afresh once another form answered, so this form's old error does not stay on
        // screen (without JavaScript the page is rendered anew anyway).
        <RedeemForm key={step ? 'answered' : 'fresh'} lastResult={step?.result} />
      )}
    </Card>
  )
}

function RedeemForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('subscription')
  const [form, fields] = useZodForm(redeemFormSchema, { id: 'redeem', lastResult })
  return (
    <>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('redeem.subtitle')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          meta={fields.redeemCode}
          label={t('redeem.code')}
          placeholder={t('redeem.placeholder')}
          autoComplete="off"
          spellCheck={false}
          className="[&_input]:font-mono"
        />
        <SubmitButton intent="validate-redeem">{t('redeem.validate')}</SubmitButton>
      </Form>
    </>
  )
}

function PackageFacts({ pkg }: { pkg: RedeemCodeCheck['package'] }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  const facts: Fact[] = [
    { label: t('package.points'), value: t('package.pointsValue', { points: format(pkg.points_limit) }) },
    { label: t('package.hourPoints'), value: t('package.hourPointsValue', { points: format(pkg.hour_points) }) },
    { label: t('package.validity'), value: t('package.validityValue', { count: pkg.validity_days }) },
  ]
  return (
    <div className="rounded-xl bg-zinc-50 p-4 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-950/60 dark:ring-zinc-800">
      <p className="flex flex-wrap items-center gap-2 font-semibold">
        <span data-testid="package-name">{pkg.name}</span>
        <Badge tone={pkg.kind === 'team' ? 'sky' : 'indigo'}>{t(`kind.${pkg.kind}`)}</Badge>
      </p>
      {pkg.description ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{pkg.description}</p> : null}
      <Facts facts={facts} size="sm" className="mt-3 grid-cols-3 gap-3" />
    </div>
  )
}

function RedeemConfirm({ code, check, formKey }: { code: string; check: RedeemCodeCheck; formKey: string }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  const current = check.replaces_active ? check.current : null
  return (
    <Form method="post" className="mt-4 space-y-4">
      <input type="hidden" name="redeemCode" value={code} />
      <FormKey value={formKey} />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('redeem.confirmSubtitle')}</p>
      <PackageFacts pkg={check.package} />
      {check.code_expires_timestamp ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          <Trans t={t} i18nKey="redeem.codeExpires" components={{ time: <LocalTime ms={check.code_expires_timestamp} /> }} />
        </p>
      ) : null}
      {check.replaces_active ? (
        <Notice tone="warning" data-testid="replace-warning">
          <p className="font-semibold">{t('redeem.replaceTitle')}</p>
          <p className="mt-1">
            {t('redeem.replaceBody', {
              name: current?.package.name ?? '',
              points: format(current?.remaining_points ?? 0),
              days: current?.remaining_days ?? 0,
            })}
          </p>
        </Notice>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <SubmitButton intent="redeem" variant={check.replaces_active ? 'danger' : 'primary'}>
          {check.replaces_active ? t('redeem.confirmReplace') : t('redeem.confirm')}
        </SubmitButton>
        <Link to="/subscription" className={buttonClass({ variant: 'secondary' })}>
          {t('redeem.cancel')}
        </Link>
      </div>
    </Form>
  )
}

// ── Team join ────────────────────────────────────────────────────────────────────────────────

function JoinTeamCard({ step, teamName }: { step: StepData | undefined; teamName: string | null }) {
  const { t } = useTranslation('subscription')
  return (
    <Card aria-labelledby="join-title" data-testid="join-team">
      <CardTitle id="join-title">{step?.preview ? t('join.compareTitle', { team: step.preview.team.team_name }) : t('join.title')}</CardTitle>
      {teamName ? (
        // Joining is irreversible (docs/product.md): a member cannot join another team.
        <Notice tone="info" className="mt-4">
          {t('join.inTeam', { name: teamName })}
        </Notice>
      ) : step?.preview && step.code ? (
        <JoinConfirm code={step.code} preview={step.preview} formKey={step.formKey ?? ''} />
      ) : (
        // As the redeem form: afresh once another form answered.
        <JoinForm key={step ? 'answered' : 'fresh'} lastResult={step?.result} />
      )}
    </Card>
  )
}

function JoinForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('subscription')
  const [form, fields] = useZodForm(teamFormSchema, { id: 'join', lastResult })
  return (
    <>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('join.subtitle')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.teamCode} label={t('join.code')} autoComplete="off" spellCheck={false} className="[&_input]:font-mono" />
        <SubmitButton intent="validate-team">{t('join.validate')}</SubmitButton>
      </Form>
    </>
  )
}

function JoinConfirm({ code, preview, formKey }: { code: string; preview: TeamPreview; formKey: string }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  const current = preview.replaces_personal ? preview.current : null
  return (
    <Form method="post" className="mt-4 space-y-4">
      <input type="hidden" name="teamCode" value={code} />
      <FormKey value={formKey} />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {t('join.compareSubtitle', { package: preview.package.name, count: preview.team.member_count })}
      </p>
      <Table
        testId="team-comparison"
        columns={[
          { id: 'field', label: t('join.field') },
          { id: 'current', label: t('join.currentPlan'), align: 'end' },
          { id: 'team', label: t('join.teamPlan'), align: 'end', className: 'text-indigo-600 dark:text-indigo-400' },
        ]}
      >
        {preview.comparison.map((row) => (
          <tr key={row.field}>
            <th scope="row" className="py-2 pr-3 font-normal text-zinc-600 dark:text-zinc-400">
              {t(`join.fields.${row.field}`)}
            </th>
            <td className="py-2 pr-3 text-right tabular-nums">{row.current === null ? t('join.none') : format(row.current)}</td>
            <td className="py-2 text-right font-semibold tabular-nums">{format(row.team)}</td>
          </tr>
        ))}
      </Table>
      <Notice tone="warning" data-testid="join-warning">
        <p className="font-semibold">{t('join.warningTitle')}</p>
        <p className="mt-1">{t('join.warning')}</p>
        {current ? (
          <p className="mt-1">{t('join.warningReplace', { name: current.package.name, points: format(current.remaining_points) })}</p>
        ) : null}
      </Notice>
      <div className="flex flex-wrap gap-3">
        <SubmitButton intent="join-team" variant="danger">
          {t('join.confirm')}
        </SubmitButton>
        <Link to="/subscription" className={buttonClass({ variant: 'secondary' })}>
          {t('join.cancel')}
        </Link>
      </div>
    </Form>
  )
}

// ── Team ─────────────────────────────────────────────────────────────────────────────────────

function TeamCard({ team, members }: { team: NonNullable<TeamInfo['team']>; members: TeamInfo['members'] }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  const pool: Fact[] = [
    { label: t('team.poolTotal'), value: format(team.total_points) },
    { label: t('team.poolRemaining'), value: format(team.remaining_points) },
    { label: t('team.poolUsed'), value: format(team.used_points) },
  ]
  return (
    <Card aria-labelledby="team-title" data-testid="team">
      <div className="flex flex-wrap items-center gap-2">
        <CardTitle id="team-title">{t('team.title')}</CardTitle>
        <span className="text-base font-semibold text-indigo-600 dark:text-indigo-400" data-testid="team-name">
          {team.name}
        </span>
        <StatusBadge status={team.status} />
      </div>
      <div className="mt-4 grid gap-5 lg:grid-cols-2">
        <div>
          <h3 className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{t('team.pool')}</h3>
          <Facts facts={pool} className="mt-2 grid-cols-3 gap-3" />
        </div>
        <div>
          <CopyField id="team-invite" label={t('team.invite')} value={team.invite_url} copyText={t('team.copy')} copiedKey="subscription:team.copied" />
          <p className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">{t('team.inviteHint')}</p>
        </div>
      </div>
      <h3 className="mt-6 text-sm font-semibold">{t('team.members')}</h3>
      <div className="mt-2">
        <Table
          testId="team-members"
          columns={[
            { id: 'member', label: t('team.member') },
            { id: 'status', label: t('team.memberStatus') },
            { id: 'joined', label: t('team.joined') },
            { id: 'used', label: t('team.memberUsed'), align: 'end' },
          ]}
        >
          {members.map((member) => (
            <tr key={member.user_id} className={member.is_current_user ? 'bg-indigo-50/50 dark:bg-indigo-950/20' : undefined}>
              <td className="py-2.5 pr-3">
                <span className="flex flex-wrap items-center gap-1.5">
                  <span className="font-medium">{member.name || member.username}</span>
                  {member.name ? <span className="text-xs text-zinc-500 dark:text-zinc-400">@{member.username}</span> : null}
                  {member.is_current_user ? <Badge tone="indigo">{t('team.you')}</Badge> : null}
                  {member.is_owner ? <Badge tone="amber">{t('team.owner')}</Badge> : null}
                </span>
              </td>
              <td className="py-2.5 pr-3">
                <Badge tone="green">{t('team.statusNormal')}</Badge>
              </td>
              <td className="py-2.5 pr-3 text-zinc-600 dark:text-zinc-400">
                <LocalTime ms={member.create_timestamp} dateOnly />
              </td>
              <td className="py-2.5 text-right font-medium tabular-nums">{format(member.used_points)}</td>
            </tr>
          ))}
        </Table>
      </div>
    </Card>
  )
}

// ── History ──────────────────────────────────────────────────────────────────────────────────

const actionTones: Record<SubscriptionHistoryItem['action'], BadgeTone> = {
  activated: 'green',
  renewed: 'indigo',
  upgraded: 'sky',
  current: 'indigo',
  expired: 'amber',
  cancelled: 'zinc',
}

function HistoryCard({ history }: { history: SubscriptionHistory }) {
  const { t } = useTranslation('subscription')
  return (
    <Card aria-labelledby="history-title" id="history" data-testid="subscription-history">
      <CardTitle id="history-title">{t('history.title')}</CardTitle>
      {history.items.length === 0 ? (
        <EmptyState icon={History} title={t('history.empty')} className="mt-4" />
      ) : (
        <div className="mt-3">
          <Table
            columns={[
              { id: 'action', label: t('history.action') },
              { id: 'package', label: t('history.package') },
              { id: 'period', label: t('history.period') },
              { id: 'time', label: t('history.time') },
            ]}
          >
            {history.items.map((item) => (
              <tr key={item.id}>
                <td className="py-2.5 pr-3">
                  <span className="flex flex-wrap gap-1.5">
                    <Badge tone={actionTones[item.action] ?? 'zinc'}>{t(`history.actions.${item.action}`)}</Badge>
                    {item.current && item.action !== 'current' ? <Badge tone="indigo">{t('history.current')}</Badge> : null}
                  </span>
                </td>
                <td className="py-2.5 pr-3">
                  <span className="font-medium">{item.package_name}</span>
                  {item.team_name ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{item.team_name}</span> : null}
                </td>
                <td className="py-2.5 pr-3 text-zinc-600 sm:whitespace-nowrap dark:text-zinc-400">
                  <LocalTime ms={item.start_timestamp} dateOnly /> – <LocalTime ms={item.end_timestamp} dateOnly />
                </td>
                <td className="py-2.5 text-zinc-600 sm:whitespace-nowrap dark:text-zinc-400">
                  <LocalTime ms={item.create_timestamp} />
                </td>
              </tr>
            ))}
          </Table>
        </div>
      )}
      <div className="mt-4">
        <PagedNav list={history} hash="#history" />
      </div>
    </Card>
  )
}
