/**
 * The second step of a two-factor sign-in (docs/decisions/099-sign-in.md): the password step left the
 * relay's challenge in a short-lived cookie; this form sends it with a code from the
 * authenticator app or a recovery code, and only then does a session start.
 */
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, redirect } from 'react-router'
import type { Route } from './+types/login-two-factor'
import { endpoints } from '#relay/contract/index.ts'
import { AuthCard } from '#app/components/auth-card.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, startSession } from '#app/middleware/session.server.ts'
import { secondFactorSchema } from '#app/schemas/security.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { clearPendingSignInHeader, readPendingSignIn } from '#app/utils/login-challenge.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { redirectWithToast, toastHeader } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

/** The sign-in ran out (five minutes) or never began: back to the password step, saying so. */
async function startOver(): Promise<Response> {
  return redirectWithToast('/auth/login', { type: 'error', key: 'errors:reason.two_factor_challenge_invalid' }, { headers: { 'Set-Cookie': await clearPendingSignInHeader() } })
}

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!(await readPendingSignIn(request))) throw await startOver()
  return { title: getI18n(context).t('auth:twoFactor.title') }
}

export async function action({ request, context }: Route.ActionArgs) {
  const pending = await readPendingSignIn(request)
  if (!pending) return startOver()
  const submission = parseWithZod(await request.formData(), { schema: secondFactorSchema })
  if (submission.status !== 'success') return invalid(submission, ['code'])
  try {
    const login = await getRelay(context).call(endpoints.security.loginTwoFactor, { body: { challenge: pending.challenge, code: submission.value.code } })
    await startSession(context, login, pending.remember)
  } catch (error) {
    if (error instanceof RelayCallError && error.reason === 'two_factor_challenge_invalid') return startOver()
    return relayRefusal(submission, error, { hideFields: ['code'], fieldOf: { two_factor_invalid: 'code' } })
  }
  const headers = new Headers()
  headers.append('Set-Cookie', await clearPendingSignInHeader())
  headers.append('Set-Cookie', await toastHeader({ type: 'success', key: 'toast.loggedIn' }))
  return redirect(safeRedirect(pending.redirectTo, '/dashboard'), { headers })
}

export default function LoginTwoFactor({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const [form, fields] = useZodForm(secondFactorSchema, { lastResult: actionData?.result })
  return (
    <AuthCard title={loaderData.title} subtitle={t('twoFactor.subtitle')}>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          meta={fields.code}
          label={t('twoFactor.code')}
          hint={t('twoFactor.codeHint')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          className="font-mono tracking-widest"
        />
        <SubmitButton className="w-full">{t('twoFactor.submit')}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        <Link to="/auth/login" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {t('twoFactor.back')}
        </Link>
      </p>
    </AuthCard>
  )
}
