import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Trans, useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useSearchParams } from 'react-router'
import { HoneypotInputs } from 'remix-utils/honeypot/react'
import type { Route } from './+types/register'
import { endpoints } from '#relay/contract/index.ts'
import { Checkbox } from '#app/components/forms/checkbox.tsx'
import { CodeWaitNotice, SendCodeButton, useCodeWait } from '#app/components/forms/code-wait.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { lazySchema, useZodForm } from '#app/components/forms/use-zod-form.ts'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { AuthCard } from '#app/components/auth-card.tsx'
import { ActionNotice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, startSession } from '#app/middleware/session.server.ts'
import { registerSchemaFor, type registerSchema } from '#app/schemas/auth.ts'
import { invalid, relayRefusal, retryAfterOf } from '#app/utils/forms.server.ts'
import { toastHeader } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export function loader({ context }: Route.LoaderArgs) {
  return { title: getI18n(context).t('auth:register.title') }
}

const secretFields = ['password', 'confirmPassword']
/** Relay refusals that belong to one field rather than the whole form. */
const fieldOf = {
  username_taken: 'username',
  email_taken: 'email',
  code_invalid: 'code',
  code_expired: 'code',
  code_attempts_exceeded: 'code',
  invite_code_invalid: 'inviteCode',
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  const submission = parseWithZod(formData, { schema: registerSchemaFor(intent) })
  if (submission.status !== 'success') return invalid(submission, secretFields)
  const relay = getRelay(context)
  try {
    if (intent === 'send-code') {
      const { email } = submission.value as { email: string }
      const sent = await relay.call(endpoints.accounts.sendRegisterCode, { body: { email } })
      return data({ result: submission.reply({ hideFields: secretFields }), notice: 'common:toast.codeSent', waitSeconds: sent.resend_after })
    }
    if (intent === 'check') {
      const { username, email } = submission.value as { username?: string; email?: string }
      const [user, mail] = await Promise.all([
        username ? relay.call(endpoints.accounts.checkUsername, { query: { username } }) : undefined,
        email ? relay.call(endpoints.accounts.checkEmail, { query: { email } }) : undefined,
      ])
      const fieldErrors: Record<string, string[]> = {}
      if (user && !user.available) fieldErrors.username = ['errors:reason.username_taken']
      if (mail && !mail.available) fieldErrors.email = ['errors:reason.email_taken']
      return data({
        result: submission.reply({ fieldErrors, hideFields: secretFields }),
        notice: Object.keys(fieldErrors).length ? undefined : 'auth:register.available',
      })
    }
    const v = submission.value as {
      username: string
      email: string
      code: string
      password: string
      inviteCode?: string
    }
    const login = await relay.call(endpoints.accounts.register, {
      body: { username: v.username, email: v.email, password: v.password, code: v.code, invite_code: v.inviteCode },
    })
    // Registering signs the new user in (the reply is a login).
    await startSession(context, login, false)
    return redirect('/dashboard', {
      headers: { 'Set-Cookie': await toastHeader({ type: 'success', key: 'toast.registeredAndLoggedIn' }) },
    })
  } catch (error) {
    const wait = intent === 'send-code' ? retryAfterOf(error) : undefined
    if (wait) return data({ result: submission.reply({ hideFields: secretFields }), waitSeconds: wait }, { status: 429 })
    return relayRefusal(submission, error, { hideFields: secretFields, fieldOf })
  }
}

// Public page: zod arrives after hydration, outside the first load (docs/decisions/030-first-paint-and-charts.md).
const clientSchema = lazySchema<typeof registerSchema>(() => import('#app/schemas/auth.ts').then((m) => m.registerSchemaFor))

export default function Register({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const [searchParams] = useSearchParams()
  // The submitter's intent picks the schema, as in the action.
  const [form, fields] = useZodForm<typeof registerSchema>(clientSchema, {
    lastResult: actionData?.result,
    defaultValue: { inviteCode: searchParams.get('invite') ?? undefined },
  })
  const notice = actionData && 'notice' in actionData ? (actionData.notice as string | undefined) : undefined
  const wait = useCodeWait(actionData && 'waitSeconds' in actionData ? (actionData.waitSeconds as number) : undefined, actionData)
  return (
    <AuthCard title={loaderData.title} subtitle={t('register.subtitle')}>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        {/* Enter in any field registers: the first submit button is the form's default. */}
        <button type="submit" name="intent" value="register" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <HoneypotInputs />
        <ActionNotice message={notice} />
        <FormErrors id={form.errorId} errors={form.errors} />
        {/* A wait refused a press; after a code sent, the button alone counts. */}
        <CodeWaitNotice left={notice ? 0 : wait.left} />
        <Field meta={fields.username} label={t('register.username')} autoComplete="username" hint={t('register.usernameHint')} />
        <Field meta={fields.email} label={t('register.email')} type="email" autoComplete="email" />
        <div className="flex flex-wrap gap-2">
          <SubmitButton intent="check" variant="secondary" formNoValidate>
            {t('register.check')}
          </SubmitButton>
          <SendCodeButton {...wait}>{t('register.sendCode')}</SendCodeButton>
        </div>
        <Field meta={fields.code} label={t('register.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        <Field meta={fields.password} label={t('register.password')} type="password" autoComplete="new-password" hint={t('register.passwordHint')} />
        <Field meta={fields.confirmPassword} label={t('register.confirmPassword')} type="password" autoComplete="new-password" />
        <Field meta={fields.inviteCode} label={t('register.inviteCode')} hint={t('register.inviteHint')} />
        <Checkbox meta={fields.agree}>
          <Trans
            t={t}
            i18nKey="register.agree"
            components={{
              terms: <Link to="/terms" target="_blank" className="font-medium text-indigo-600 underline dark:text-indigo-400" />,
              privacy: <Link to="/privacy" target="_blank" className="font-medium text-indigo-600 underline dark:text-indigo-400" />,
            }}
          />
        </Checkbox>
        <SubmitButton intent="register" className="w-full">
          {t('register.submit')}
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {t('register.haveAccount')}{' '}
        <Link to="/auth/login" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {t('register.login')}
        </Link>
      </p>
    </AuthCard>
  )
}
