/**
 * Enrolling in two-factor sign-in (docs/decisions/099-sign-in.md, decisions/071-secrets-sealed-with-jwt-secret.md): start (the relay makes a key), scan
 * the QR code drawn here on the server as inline SVG or type the key shown as text, confirm with
 * a first code, then read the ten recovery codes, shown once on the page that answers the form.
 * Once it is on, the same page replaces the recovery codes for a current code. Both forms carry a
 * form key, so a repeated post answers the same codes rather than a refusal
 * (docs/decisions/005-forms.md).
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Download, ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/security-two-factor'
import { endpoints } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { CopyButton } from '#app/components/copy-button.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { enableTwoFactorSchema, secondFactorSchema } from '#app/schemas/security.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayErrorKey, relayRefusal } from '#app/utils/forms.server.ts'
import { qrCodeSvg } from '#app/utils/qr-code.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

const page = '/profile/security/two-factor'

export async function loader({ context }: Route.LoaderArgs) {
  const status = await getRelay(context).call(endpoints.security.twoFactor)
  const enrolment = status.enrolment ? { secret: status.enrolment.secret, qr: await qrCodeSvg(status.enrolment.otpauth_uri) } : null
  return {
    title: getI18n(context).t('profile:security.enrol.title'),
    enabled: status.enabled,
    required: status.required,
    codesLeft: status.recovery_codes_left,
    enrolment,
    formKey: newFormKey(),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const relay = getRelay(context)
  if (formData.get('intent') === 'start') {
    try {
      await relay.call(endpoints.security.startTwoFactor)
    } catch (error) {
      if (error instanceof RelayCallError) return redirectWithToast('/profile/security', { type: 'error', key: relayErrorKey(error) })
      throw error
    }
    return redirect(page)
  }
  if (formData.get('intent') === 'regenerate') {
    const submission = parseWithZod(formData, { schema: secondFactorSchema })
    if (submission.status !== 'success') return invalid(submission, ['code'])
    try {
      const { recovery_codes: recoveryCodes } = await relay.call(endpoints.security.regenerateRecoveryCodes, { body: submission.value, ...formKeyOf(formData) })
      return data({ result: undefined, recoveryCodes, regenerated: true })
    } catch (error) {
      return relayRefusal(submission, error, { hideFields: ['code'], fieldOf: { two_factor_invalid: 'code' } })
    }
  }
  const submission = parseWithZod(formData, { schema: enableTwoFactorSchema })
  if (submission.status !== 'success') return invalid(submission, ['code'])
  try {
    const { recovery_codes: recoveryCodes } = await relay.call(endpoints.security.enableTwoFactor, { body: submission.value, ...formKeyOf(formData) })
    return data({ result: undefined, recoveryCodes, regenerated: false })
  } catch (error) {
    return relayRefusal(submission, error, { hideFields: ['code'], fieldOf: { two_factor_invalid: 'code' } })
  }
}

export default function TwoFactorEnrolment({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const codes = actionData && 'recoveryCodes' in actionData ? actionData : undefined
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('security.enrol.subtitle')} />
      {loaderData.required && !loaderData.enabled ? <Notice tone="warning">{t('security.twoFactor.required')}</Notice> : null}
      {codes ? (
        <RecoveryCodes codes={codes.recoveryCodes} regenerated={codes.regenerated} />
      ) : loaderData.enabled ? (
        <RegenerateCard codesLeft={loaderData.codesLeft} formKey={loaderData.formKey} lastResult={actionData?.result} />
      ) : loaderData.enrolment ? (
        <ConfirmCard enrolment={loaderData.enrolment} formKey={loaderData.formKey} lastResult={actionData?.result} />
      ) : (
        <Card>
          <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('security.enrol.startBody')}</p>
          <Form method="post" className="mt-4 flex flex-wrap gap-2">
            <SubmitButton intent="start">{t('security.enrol.start')}</SubmitButton>
            <Link to="/profile/security" className={buttonClass({ variant: 'secondary' })}>
              {t('security.enrol.cancel')}
            </Link>
          </Form>
        </Card>
      )}
    </div>
  )
}

function BackLink({ label }: { label: string }) {
  return (
    <Link to="/profile/security" className={buttonClass({ variant: 'secondary', className: 'mt-4' })}>
      {label}
    </Link>
  )
}

function ConfirmCard({ enrolment, formKey, lastResult }: { enrolment: { secret: string; qr: string }; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('profile')
  const [form, fields] = useZodForm(enableTwoFactorSchema, { id: 'enable-form', lastResult })
  // The key in groups of four, as authenticator apps show keys to type.
  const grouped = enrolment.secret.match(/.{1,4}/g)?.join(' ') ?? enrolment.secret
  return (
    <Card aria-labelledby="scan-title" data-testid="enrolment">
      <CardTitle id="scan-title">{t('security.enrol.step1')}</CardTitle>
      <div className="mt-4 flex flex-col items-center gap-5 sm:flex-row sm:items-start">
        {/* Drawn on the server from the relay's otpauth address; a white frame so phones read it in the dark theme too. */}
        <div
          role="img"
          aria-label={t('security.enrol.qrAlt')}
          className="size-48 shrink-0 rounded-xl bg-white p-2 ring-1 ring-zinc-200 dark:ring-zinc-700 [&>svg]:size-full"
          dangerouslySetInnerHTML={{ __html: enrolment.qr }}
          data-testid="qr-code"
        />
        <div className="min-w-0 flex-1">
          <p className="text-sm text-zinc-600 dark:text-zinc-300">{t('security.enrol.manual')}</p>
          <p className="mt-2 rounded-lg bg-zinc-100 px-3 py-2 font-mono text-sm break-all text-zinc-900 select-all dark:bg-zinc-800 dark:text-zinc-100" data-testid="secret">
            {grouped}
          </p>
        </div>
      </div>
      <h2 className="mt-6 text-base font-semibold text-zinc-900 dark:text-zinc-100">{t('security.enrol.step2')}</h2>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.code} label={t('security.enrol.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="max-w-48" />
        <div className="flex flex-wrap gap-2">
          <SubmitButton intent="enable">{t('security.enrol.submit')}</SubmitButton>
          <Link to="/profile/security" className={buttonClass({ variant: 'secondary' })}>
            {t('security.enrol.cancel')}
          </Link>
        </div>
      </Form>
    </Card>
  )
}

/** With two-factor on: how many recovery codes are left, and a form that replaces them for a current code. */
function RegenerateCard({ codesLeft, formKey, lastResult }: { codesLeft: number; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('profile')
  const [form, fields] = useZodForm(secondFactorSchema, { id: 'regenerate-form', lastResult })
  return (
    <Card aria-labelledby="regenerate-title" data-testid="regenerate">
      <Notice tone="success">{t('security.twoFactor.bodyOn')}</Notice>
      <CardTitle id="regenerate-title" className="mt-5">
        {t('security.regenerate.title')}
      </CardTitle>
      <p className="mt-1 text-sm font-medium text-zinc-700 tabular-nums dark:text-zinc-300" data-testid="codes-left">
        {t('security.twoFactor.codesLeft', { count: codesLeft })}
      </p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t('security.regenerate.body')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.code} label={t('security.twoFactor.code')} autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} className="max-w-60" />
        <div className="flex flex-wrap gap-2">
          <SubmitButton intent="regenerate">{t('security.regenerate.submit')}</SubmitButton>
          <Link to="/profile/security" className={buttonClass({ variant: 'secondary' })}>
            {t('security.enrol.cancel')}
          </Link>
        </div>
      </Form>
    </Card>
  )
}

/**
 * The codes, shown this once. All at once: the block is selected with one click (no script needed)
 * and copied with the button once scripts run; the download posts them to a resource route that
 * answers a .txt file, with or without scripts.
 */
function RecoveryCodes({ codes, regenerated }: { codes: string[]; regenerated: boolean }) {
  const { t } = useTranslation('profile')
  const hydrated = useHydrated()
  return (
    <Card aria-labelledby="codes-title" data-testid="recovery-codes">
      <div className="flex items-center gap-2">
        <ShieldCheck className="size-5 text-emerald-600 dark:text-emerald-400" />
        <CardTitle id="codes-title">{t('security.enrol.codesTitle')}</CardTitle>
      </div>
      <Notice tone="success" className="mt-3">
        {regenerated ? t('security.regenerate.done') : t('security.enrol.enabled')}
      </Notice>
      <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">{t('security.enrol.codesBody')}</p>
      <ol
        className="mt-4 grid grid-cols-2 gap-2 rounded-xl bg-zinc-100 p-4 font-mono text-sm text-zinc-900 select-all dark:bg-zinc-800 dark:text-zinc-100"
        aria-label={t('security.enrol.codesTitle')}
        data-testid="recovery-code-block"
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      {hydrated ? null : <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">{t('security.enrol.selectCodes')}</p>}
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton text={codes.join('\n')}>{t('security.enrol.copyCodes')}</CopyButton>
        {/* A document request, so the browser saves the answer as a file instead of the router reading it. */}
        <Form method="post" action="/resources/recovery-codes.txt" reloadDocument>
          {codes.map((code) => (
            <input key={code} type="hidden" name="code" value={code} />
          ))}
          <SubmitButton variant="secondary" data-testid="download-recovery-codes">
            <Download className="size-4" />
            {t('security.enrol.downloadCodes')}
          </SubmitButton>
        </Form>
      </div>
      <BackLink label={t('security.enrol.done')} />
    </Card>
  )
}
