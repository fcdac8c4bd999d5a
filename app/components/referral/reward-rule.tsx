/**
 * The configured referral reward rule as a table (docs/architecture.md §6: screens render the rule from
 * configuration, never from fixed copy): for a first and a later paid purchase, what the inviter
 * and the friend each get, in points and membership days.
 */
import { useTranslation } from 'react-i18next'
import type { ReferralReward, ReferralRule } from '#relay/contract/index.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export function RewardRule({ rule }: { rule: ReferralRule }) {
  const { t } = useTranslation('referral')
  const format = useNumberFormat()
  // Each amount stays on one line; a long combination wraps between amounts.
  const describe = (points: number, days: number) => {
    const parts = [
      points > 0 ? t('rule.points', { points: format(points) }) : null,
      days > 0 ? t('rule.days', { count: days }) : null,
    ].filter((part): part is string => part !== null)
    if (parts.length === 0) return t('rule.nothing')
    return parts.map((part, index) => (
      <span key={part}>
        {index > 0 ? t('rule.and') : null}
        <span className="whitespace-nowrap">{part}</span>
      </span>
    ))
  }
  const rows: Array<[string, ReferralReward]> = [
    [t('rule.first'), rule.first],
    [t('rule.later'), rule.later],
  ]
  return (
    <table className="w-full text-left text-sm" data-testid="reward-rule">
      <thead className="text-xs text-zinc-500 dark:text-zinc-400">
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          <th scope="col" className="py-2 pr-3 font-medium">
            {t('rule.when')}
          </th>
          <th scope="col" className="py-2 pr-3 font-medium">
            {t('rule.you')}
          </th>
          <th scope="col" className="py-2 font-medium">
            {t('rule.friend')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {rows.map(([when, reward]) => (
          <tr key={when}>
            <th scope="row" className="py-2.5 pr-3 align-top font-normal text-zinc-600 dark:text-zinc-400">
              {when}
            </th>
            <td className="py-2.5 pr-3 align-top font-medium text-zinc-900 tabular-nums dark:text-zinc-100">
              {describe(reward.inviter_points, reward.inviter_days)}
            </td>
            <td className="py-2.5 align-top font-medium text-zinc-900 tabular-nums dark:text-zinc-100">
              {describe(reward.invitee_points, reward.invitee_days)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
