import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, redirect, useSearchParams } from 'react-router'
import { HoneypotInputs } from 'remix-utils/honeypot/react'
import type { Route } from './+types/login'
import { endpoints } from '#relay/contract/index.ts'
import { Checkbox } from '#app/components/forms/checkbox.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { lazySchema, useZodForm } from '#app/components/forms/use-zod-form.ts'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { AuthCard } from '#app/components/auth-card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, startSession } from '#app/middleware/session.server.ts'
import { loginSchema } from '#app/schemas/auth.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { pendingSignInHeader } from '#app/utils/login-challenge.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { readDeviceToken } from '#app/utils/session.server.ts'
import { toastHeader } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export function loader({ request, context }: Route.LoaderArgs) {
  const reason = new URL(request.url).searchParams.get('reason')
  // Why the visitor was sent here, said without JavaScript: the session ended, or the page needs one.
  const notice = reason === 'expired' ? ('sessionExpired' as const) : reason === 'required' ? ('loginFirst' as const) : null
  return { title: getI18n(context).t('auth:login.title'), notice }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: loginSchema })
  if (submission.status !== 'success') return invalid(submission, ['password'])
  const { username, password, remember, redirectTo } = submission.value
  try {
    const login = await getRelay(context).call(endpoints.accounts.login, { body: { username, password, device_token: readDeviceToken(request) } })
    if ('two_factor_required' in login) {
      // No session yet: the code step continues on its own page (docs/decisions/099-sign-in.md).
      const pending = { challenge: login.challenge, remember: remember ?? false, redirectTo: redirectTo ?? '' }
      return redirect('/auth/login/two-factor', { headers: { 'Set-Cookie': await pendingSignInHeader(pending, login.expires_in) } })
    }
    await startSession(context, login, remember ?? false)
  } catch (error) {
    return relayRefusal(submission, error, { hideFields: ['password'] })
  }
  return redirect(safeRedirect(redirectTo, '/dashboard'), {
    headers: { 'Set-Cookie': await toastHeader({ type: 'success', key: 'toast.loggedIn' }) },
  })
}

// Public page: zod arrives after hydration, outside the first load (docs/decisions/030-first-paint-and-charts.md).
const clientSchema = lazySchema(() => import('#app/schemas/auth.ts').then((m) => m.loginSchema))

export default function Login({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const { t: te } = useTranslation('errors')
  const [searchParams] = useSearchParams()
  const [form, fields] = useZodForm(clientSchema, { lastResult: actionData?.result })
  const redirectTo = searchParams.get('redirectTo') ?? ''
  return (
    <AuthCard title={loaderData.title} subtitle={t('login.subtitle')}>
      {loaderData.notice ? (
        <Notice tone="warning" className="mt-4" data-testid="login-notice">
          {te(loaderData.notice)}
        </Notice>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        <HoneypotInputs />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.username} label={t('login.username')} autoComplete="username" autoFocus />
        <Field meta={fields.password} label={t('login.password')} type="password" autoComplete="current-password" />
        <div className="flex items-center justify-between">
          <Checkbox meta={fields.remember}>{t('login.remember')}</Checkbox>
          <Link to="/auth/forgot-password" className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            {t('login.forgot')}
          </Link>
        </div>
        <SubmitButton className="w-full">{t('login.submit')}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('login.noAccount')}{' '}
        <Link to="/auth/register" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {t('login.register')}
        </Link>
      </p>
    </AuthCard>
  )
}

