/** Redeem a code: validate, then confirm (with the warning when it replaces the package in force). */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Trans, useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { RedeemCodeCheck } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Facts, type Fact } from '#app/components/ui/facts.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { redeemFormSchema } from './forms.ts'
import type { StepData } from './steps.ts'
import { packageKindTone } from '#app/components/subscription/package-kind.ts'

export function RedeemCard({ step, teamName }: { step: StepData | undefined; teamName: string | null }) {
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
  const points = { label: t('package.points'), value: t('package.pointsValue', { points: format(pkg.points_limit) }) }
  // A top-up's refill and validity are its plan's, not its own.
  const facts: Fact[] =
    pkg.kind === 'topup'
      ? [points]
      : [
          points,
          { label: t('package.hourPoints'), value: t('package.hourPointsValue', { points: format(pkg.hour_points) }) },
          { label: t('package.validity'), value: t('package.validityValue', { count: pkg.validity_days }) },
        ]
  return (
    <div className="rounded-xl bg-zinc-50 p-4 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-950/60 dark:ring-zinc-800">
      <p className="flex flex-wrap items-center gap-2 font-semibold">
        <span data-testid="package-name">{pkg.name}</span>
        <Badge tone={packageKindTone[pkg.kind]}>{t(`kind.${pkg.kind}`)}</Badge>
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
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{check.package.kind === 'topup' ? t('redeem.topupSubtitle') : t('redeem.confirmSubtitle')}</p>
      <PackageFacts pkg={check.package} />
      {check.package.kind === 'topup' && check.current ? (
        <Notice tone="info" data-testid="topup-target">
          <Trans
            t={t}
            i18nKey="redeem.topupAdds"
            values={{ points: format(check.package.points_limit), name: check.current.package.name }}
            components={{ time: <LocalTime ms={check.current.end_timestamp} /> }}
          />
        </Notice>
      ) : null}
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
