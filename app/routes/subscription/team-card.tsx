/** The caller's team and its members; the owner also sets each member's caps. */
import { getFormProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { TeamInfo } from '#relay/contract/index.ts'
import { CopyField } from '#app/components/copy-button.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/subscription/status-badge.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { memberCapsFormSchema } from './forms.ts'
import type { StepData } from './steps.ts'

type Member = TeamInfo['members'][number]

export function TeamCard({ team, members, capsStep }: { team: NonNullable<TeamInfo['team']>; members: TeamInfo['members']; capsStep?: StepData }) {
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
            // Phones keep the figures; a member's status is always normal and the join date can wait.
            { id: 'status', label: t('team.memberStatus'), className: 'hidden sm:table-cell' },
            { id: 'joined', label: t('team.joined'), className: 'hidden sm:table-cell' },
            { id: 'used', label: t('team.memberUsed'), align: 'end' },
            { id: 'caps', label: t('team.caps'), align: 'end' },
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
              <td className="hidden py-2.5 pr-3 sm:table-cell">
                <Badge tone="green">{t('team.statusNormal')}</Badge>
              </td>
              <td className="hidden py-2.5 pr-3 text-zinc-600 sm:table-cell dark:text-zinc-400">
                <LocalTime ms={member.create_timestamp} dateOnly />
              </td>
              <td className="py-2.5 pr-3 text-right font-medium tabular-nums">{format(member.used_points)}</td>
              <td className="py-2.5 text-right text-xs whitespace-nowrap text-zinc-600 tabular-nums dark:text-zinc-400" data-testid="member-caps">
                <CapUse used={member.hour_points_used} cap={member.hourly_points_cap} unit={t('team.perHour')} />
                <CapUse used={member.day_points_used} cap={member.daily_points_cap} unit={t('team.perDay')} />
              </td>
            </tr>
          ))}
        </Table>
      </div>
      {team.owner_id === members.find((m) => m.is_current_user)?.user_id ? (
        <section aria-labelledby="caps-title" className="mt-6">
          <h3 id="caps-title" className="text-sm font-semibold">
            {t('team.capsTitle')}
          </h3>
          <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('team.capsHint')}</p>
          <div className="mt-3 grid gap-3 md:grid-cols-2">
            {members.map((member) => (
              <MemberCapsForm key={member.user_id} member={member} step={capsStep?.result.initialValue?.memberId === member.user_id ? capsStep : undefined} />
            ))}
          </div>
        </section>
      ) : null}
    </Card>
  )
}

/** "used / cap" for this hour or today; nothing when there is no cap. */
function CapUse({ used, cap, unit }: { used: number; cap: number | null; unit: string }) {
  const format = useNumberFormat()
  if (cap === null) return null
  return (
    <span className={used >= cap ? 'block font-medium text-red-600 dark:text-red-400' : 'block'}>
      {format(used)} / {format(cap)} {unit}
    </span>
  )
}

/** One member's caps, a real form; it opens by itself when it came back with errors, so the typed input is in view. */
function MemberCapsForm({ member, step }: { member: Member; step?: StepData }) {
  const { t } = useTranslation('subscription')
  const [form, fields] = useZodForm(memberCapsFormSchema, {
    id: `caps-${member.user_id}`,
    lastResult: step?.result,
    defaultValue: { memberId: member.user_id, hourlyCap: member.hourly_points_cap ?? undefined, dailyCap: member.daily_points_cap ?? undefined },
  })
  return (
    <details className="group rounded-xl border border-zinc-200 dark:border-zinc-800" open={step ? true : undefined} data-testid={`caps-${member.username}`}>
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-xl px-4 py-2.5 text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-zinc-800/60 [&::-webkit-details-marker]:hidden">
        <span className="font-medium">{member.name || member.username}</span>
        <span className="text-xs text-zinc-500 dark:text-zinc-400">
          {member.hourly_points_cap === null && member.daily_points_cap === null ? t('team.noCaps') : t('team.capsSet')}
        </span>
      </summary>
      <Form method="post" {...getFormProps(form)} className="space-y-3 border-t border-zinc-200 p-4 dark:border-zinc-800">
        <input type="hidden" name={fields.memberId.name} value={member.user_id} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field meta={fields.hourlyCap} type="number" step={1} label={t('team.hourlyCap')} hint={t('team.blankHint')} />
          <Field meta={fields.dailyCap} type="number" step={1} label={t('team.dailyCap')} hint={t('team.dailyHint')} />
        </div>
        <div className="flex justify-end">
          <SubmitButton intent="member-caps">{t('team.capsSubmit')}</SubmitButton>
        </div>
      </Form>
    </details>
  )
}
