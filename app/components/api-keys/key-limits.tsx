/**
 * One key's controls (docs/decisions/050-api-keys-and-their-limits.md): its current use against each limit, and behind a
 * disclosure the form that sets them, a real form that works without JavaScript. The disclosure
 * opens by itself when its form came back with errors, so the typed input is in view.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { ApiKey } from '#relay/contract/index.ts'
import { Checkbox } from '#app/components/forms/checkbox.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { ProgressBar } from '#app/components/ui/progress-bar.tsx'
import { apiKeyLimitsFormSchema, dateOfExpiry } from '#app/schemas/api-keys.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export function KeyLimits({ apiKey, lastResult, now }: { apiKey: ApiKey; lastResult?: SubmissionResult<string[]>; now: number }) {
  const { t } = useTranslation('apiKeys')
  const { limits } = apiKey
  const [form, fields] = useZodForm(apiKeyLimitsFormSchema, {
    id: `limits-${apiKey.id}`,
    lastResult,
    defaultValue: {
      id: apiKey.id,
      enabled: limits.enabled,
      expires: limits.expires_timestamp === null ? undefined : dateOfExpiry(limits.expires_timestamp),
      pointsQuota: limits.points_quota ?? undefined,
      dailyPointsQuota: limits.daily_points_quota ?? undefined,
      rpmLimit: limits.rpm_limit ?? undefined,
      concurrencyLimit: limits.concurrency_limit ?? undefined,
      allowedModels: limits.allowed_models?.join(' ') ?? undefined,
      allowedIps: limits.allowed_ips?.join(' ') ?? undefined,
    },
  })
  return (
    <div className="space-y-3" data-testid="key-limits">
      <KeyUse apiKey={apiKey} now={now} />
      <details className="group rounded-xl border border-zinc-200 dark:border-zinc-800" open={lastResult ? true : undefined}>
        <summary className="cursor-pointer list-none rounded-xl px-4 py-2.5 text-sm font-semibold text-indigo-600 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-400 dark:hover:bg-zinc-800/60 [&::-webkit-details-marker]:hidden">
          <span className="group-open:hidden">{t('limits.edit')}</span>
          <span className="hidden group-open:inline">{t('limits.close')}</span>
        </summary>
        <Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-zinc-200 p-4 dark:border-zinc-800">
          <input type="hidden" name={fields.id.name} value={apiKey.id} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Checkbox meta={fields.enabled}>{t('limits.enabled')}</Checkbox>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field meta={fields.expires} type="date" label={t('limits.expires')} hint={t('limits.expiresHint')} />
            <Field meta={fields.allowedModels} label={t('limits.models')} hint={t('limits.modelsHint')} autoComplete="off" placeholder="claude-sonnet-* claude-haiku-*" />
            <Field meta={fields.pointsQuota} type="number" step={1} label={t('limits.pointsQuota')} hint={t('limits.blankHint')} />
            <Field meta={fields.dailyPointsQuota} type="number" step={1} label={t('limits.dailyPointsQuota')} hint={t('limits.dailyHint')} />
            <Field meta={fields.rpmLimit} type="number" step={1} label={t('limits.rpm')} hint={t('limits.blankHint')} />
            <Field meta={fields.concurrencyLimit} type="number" step={1} label={t('limits.concurrency')} hint={t('limits.blankHint')} />
            <Field meta={fields.allowedIps} label={t('limits.ips')} hint={t('limits.ipsHint')} autoComplete="off" placeholder="203.0.113.0/24 198.51.100.7" />
          </div>
          <div className="flex justify-end">
            <SubmitButton intent="limits">{t('limits.submit')}</SubmitButton>
          </div>
        </Form>
      </details>
    </div>
  )
}

/** Each limit with its current use; a limit not set reads "unlimited", with what was used beside it once something was. */
function KeyUse({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const { t } = useTranslation('apiKeys')
  const number = useNumberFormat()
  const { limits, use } = apiKey
  const expired = limits.expires_timestamp !== null && limits.expires_timestamp <= now
  const rows: Array<{ id: string; label: string; value: number; max: number | null }> = [
    { id: 'day', label: t('limits.dailyPointsQuota'), value: use.day_points_used, max: limits.daily_points_quota },
    { id: 'total', label: t('limits.pointsQuota'), value: use.points_used, max: limits.points_quota },
    { id: 'rpm', label: t('limits.rpm'), value: use.minute_calls, max: limits.rpm_limit },
    { id: 'concurrency', label: t('limits.concurrency'), value: use.in_flight, max: limits.concurrency_limit },
  ]
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        {!limits.enabled ? (
          <Badge tone="red">{t('limits.state.disabled')}</Badge>
        ) : expired ? (
          <Badge tone="amber">{t('limits.state.expired')}</Badge>
        ) : (
          <Badge tone="green">{t('limits.state.enabled')}</Badge>
        )}
        {limits.expires_timestamp !== null ? (
          <span className="text-zinc-500 dark:text-zinc-400">{t('limits.through', { date: dateOfExpiry(limits.expires_timestamp) })}</span>
        ) : null}
        <span className="text-zinc-500 dark:text-zinc-400">
          {limits.allowed_models ? t('limits.modelsOnly', { models: limits.allowed_models.join(', ') }) : t('limits.allModels')}
        </span>
        {limits.allowed_ips ? (
          <span className="text-zinc-500 dark:text-zinc-400" data-testid="key-addresses">
            {t('limits.addressesOnly', { addresses: limits.allowed_ips.join(', ') })}
          </span>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {rows.map((row) => (
          <div key={row.id} className="space-y-1" data-testid={`use-${row.id}`}>
            <dt className="text-xs text-zinc-500 dark:text-zinc-400">{row.label}</dt>
            <dd className="text-sm text-zinc-900 tabular-nums dark:text-zinc-100">
              {row.max !== null ? (
                t('limits.useOf', { used: number(row.value), max: number(row.max) })
              ) : (
                // No "0 / …": a bare 0 beside the quota's name reads as a limit of 0.
                <>
                  {t('limits.unlimited')}
                  {row.value > 0 ? <span className="ml-2 text-xs text-zinc-500 dark:text-zinc-400">{t('limits.usedSoFar', { used: number(row.value) })}</span> : null}
                </>
              )}
            </dd>
            {row.max !== null ? <ProgressBar value={row.value} max={row.max} label={row.label} /> : null}
          </div>
        ))}
      </dl>
    </div>
  )
}
