/** The caller's team and its members. */
import { useTranslation } from 'react-i18next'
import type { TeamInfo } from '#relay/contract/index.ts'
import { CopyField } from '#app/components/copy-button.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/subscription/status-badge.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export function TeamCard({ team, members }: { team: NonNullable<TeamInfo['team']>; members: TeamInfo['members'] }) {
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
