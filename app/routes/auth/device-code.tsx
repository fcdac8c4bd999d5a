/**
 * `/auth/device-code`: anyone may open it and type the 8 characters their device shows
 * (prefilled from `?code=`, any case, hyphen optional). Verifying needs an account: a visitor who
 * is not signed in is sent to sign in with the code kept in the return address, and comes back
 * to this form with it filled in (docs/decisions/061-device-codes-and-consent.md). Signed in, verifying shows which client
 * asks for what, then the user authorises or denies. Verifying answers in place (the
 * confirmation step is the action's reply, so it needs no JavaScript); the decision redirects
 * with a toast to a finished state that tells the user to go back to the device.
 */
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Trans, useTranslation } from 'react-i18next'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/device-code'
import { endpoints, normaliseDeviceCode, type DeviceCodeCheck } from '#relay/contract/index.ts'
import { oauthScreens } from '#relay/contract/screens.ts'
import { ErrorList, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { lazySchema, useZodForm } from '#app/components/forms/use-zod-form.ts'
import { ClientHeading, ClientName, PermissionList } from '#app/components/oauth/consent-parts.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, getSession } from '#app/middleware/session.server.ts'
import { deviceCodeSchema } from '#app/schemas/oauth.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { loginUrl } from '#app/utils/safe-redirect.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

const outcomes = ['approved', 'denied'] as const
type Outcome = (typeof outcomes)[number]
const fieldOf = { device_code_invalid: 'code', device_code_expired: 'code', validation: 'code' }

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams
  const typed = query.get('code') ?? ''
  const outcome = outcomes.find((o) => o === query.get('status')) ?? null
  return {
    title: getI18n(context).t('oauth:device.title'),
    prefill: normaliseDeviceCode(typed) ?? typed.slice(0, 32),
    outcome,
    signedIn: getSession(context) !== null,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  const submission = parseWithZod(formData, { schema: deviceCodeSchema })
  if (submission.status !== 'success') return invalid(submission)
  const deviceCode = submission.value.code
  if (!getSession(context)) {
    // Sign in first, then back to this form with the code filled in.
    const back = new URL(`${oauthScreens.device}?code=${encodeURIComponent(deviceCode)}`, request.url)
    return redirectWithToast(loginUrl(new Request(back)), { type: 'info', key: 'oauth:toast.deviceSignIn', values: { code: deviceCode } })
  }
  const relay = getRelay(context)
  try {
    if (intent === 'approve' || intent === 'deny') {
      await relay.call(endpoints.oauth.authorize, { body: { device_code: deviceCode, decision: intent } })
      const outcome: Outcome = intent === 'approve' ? 'approved' : 'denied'
      return redirectWithToast(`${oauthScreens.device}?status=${outcome}`, {
        type: intent === 'approve' ? 'success' : 'info',
        key: intent === 'approve' ? 'oauth:toast.deviceAuthorized' : 'oauth:toast.deviceDenied',
      })
    }
    const check = await relay.call(endpoints.oauth.verifyCode, { body: { device_code: deviceCode } })
    // Counted here rather than while rendering, so the server's and the browser's render agree.
    const minutesLeft = Math.max(1, Math.ceil((check.expires_timestamp - Date.now()) / 60_000))
    const minutesAgo = Math.max(0, Math.floor((Date.now() - check.requested_timestamp) / 60_000))
    return data({ result: submission.reply(), check, minutesLeft, minutesAgo })
  } catch (error) {
    return relayRefusal(submission, error, { fieldOf })
  }
}

// Public page: zod arrives after hydration, outside the first load (docs/decisions/030-first-paint-and-charts.md).
const clientSchema = lazySchema(() => import('#app/schemas/oauth.ts').then((m) => m.deviceCodeSchema))

export default function DeviceCode({ loaderData, actionData }: Route.ComponentProps) {
  // React Router's inferred union drops the verify branch's extra fields (as api-keys.tsx notes).
  const verified = actionData as { check?: DeviceCodeCheck; minutesLeft?: number; minutesAgo?: number } | undefined
  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-xl font-bold tracking-tight">{loaderData.title}</h1>
      {verified?.check ? (
        <Confirm check={verified.check} minutesLeft={verified.minutesLeft ?? 1} minutesAgo={verified.minutesAgo ?? 0} />
      ) : loaderData.outcome && !actionData ? (
        <Finished outcome={loaderData.outcome} />
      ) : (
        <EnterCode prefill={loaderData.prefill} signedIn={loaderData.signedIn} lastResult={actionData?.result} />
      )}
    </Card>
  )
}

function EnterCode({ prefill, signedIn, lastResult }: { prefill: string; signedIn: boolean; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('oauth')
  const [form, fields] = useZodForm(clientSchema, { lastResult, defaultValue: { code: prefill } })
  const code = getInputProps(fields.code, { type: 'text' })
  return (
    <>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('device.subtitle')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="space-y-1.5">
          <Label htmlFor={fields.code.id}>{t('device.code')}</Label>
          <Input
            {...code}
            key={code.key}
            placeholder="XXXX-XXXX"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            className="h-12 text-center font-mono text-xl tracking-[0.3em] uppercase placeholder:tracking-[0.3em]"
          />
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('device.codeHint')}</p>
          <ErrorList id={fields.code.errorId} errors={fields.code.errors} />
        </div>
        <SubmitButton intent="verify" className="w-full">
          {t('device.verify')}
        </SubmitButton>
        {signedIn ? null : (
          <p className="text-center text-xs text-zinc-500 dark:text-zinc-400" data-testid="device-sign-in-hint">
            {t('device.signInHint')}
          </p>
        )}
      </Form>
    </>
  )
}

function Confirm({ check, minutesLeft, minutesAgo }: { check: DeviceCodeCheck; minutesLeft: number; minutesAgo: number }) {
  const { t } = useTranslation('oauth')
  return (
    <>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('device.confirmSubtitle')}</p>
      <p className="mt-5 rounded-xl bg-zinc-100 py-3 text-center font-mono text-2xl font-semibold tracking-[0.3em] text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100">
        {check.device_code}
      </p>
      <div className="mt-5">
        <ClientHeading name={check.client_name}>
          <Trans t={t} i18nKey="device.wantsAccess" values={{ client: check.client_name }} components={{ client: <ClientName /> }} />
        </ClientHeading>
      </div>
      <p className="mt-6 mb-2 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t('consent.permissions')}</p>
      <PermissionList scopes={check.scopes} />
      <Notice tone="warning" className="mt-4">
        {t('device.warning')}
      </Notice>
      {/* Where and when the device asked (RFC 8628 §5.4): a request the person did not make shows. */}
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300" data-testid="device-origin">
        {check.requested_from === null
          ? t('device.requestedUnknown', { count: minutesAgo })
          : minutesAgo === 0
            ? t('device.requestedNow', { address: check.requested_from })
            : t('device.requested', { count: minutesAgo, address: check.requested_from })}
      </p>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300" data-testid="device-started">
        {t('device.startedAt')} <LocalTime ms={check.requested_timestamp} />
      </p>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('consent.lasts', { count: check.grant_days })}</p>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('device.expiresIn', { count: minutesLeft })}</p>
      <Form method="post" className="mt-5 grid grid-cols-2 gap-3">
        <input type="hidden" name="code" value={check.device_code} />
        <SubmitButton intent="deny" variant="secondary">
          {t('device.deny')}
        </SubmitButton>
        <SubmitButton intent="approve">{t('device.authorize')}</SubmitButton>
      </Form>
      <p className="mt-5 text-center text-sm">
        <Link to={oauthScreens.device} className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {t('device.another')}
        </Link>
      </p>
    </>
  )
}

function Finished({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation('oauth')
  const approved = outcome === 'approved'
  return (
    <>
      <Notice tone={approved ? 'success' : 'info'} className="mt-5">
        <p className="font-medium">{approved ? t('device.approvedTitle') : t('device.deniedTitle')}</p>
        <p className="mt-1">{approved ? t('device.approvedBody') : t('device.deniedBody')}</p>
      </Notice>
      <Link to={oauthScreens.device} className={buttonClass({ variant: 'secondary', className: 'mt-6 w-full' })}>
        {t('device.another')}
      </Link>
    </>
  )
}
