import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect } from 'react-router'
import { HoneypotInputs } from 'remix-utils/honeypot/react'
import type { Route } from './+types/forgot-password'
import { endpoints } from '#relay/contract/index.ts'
import { CodeWaitNotice, SendCodeButton, useCodeWait } from '#app/components/forms/code-wait.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { lazySchema, useZodForm } from '#app/components/forms/use-zod-form.ts'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { AuthCard } from '#app/components/auth-card.tsx'
import { ActionNotice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { resetSchemaFor, type resetSchema } from '#app/schemas/auth.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal, retryAfterOf } from '#app/utils/forms.server.ts'
import { toastHeader } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export function loader({ context }: Route.LoaderArgs) {
  return { title: getI18n(context).t('auth:forgot.title'), formKey: newFormKey() }
}

const secretFields = ['newPassword', 'confirmPassword']
const fieldOf = { code_invalid: 'code', code_expired: 'code', code_attempts_exceeded: 'code' }

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  const submission = parseWithZod(formData, { schema: resetSchemaFor(intent) })
  if (submission.status !== 'success') return invalid(submission, secretFields)
  const relay = getRelay(context)
  try {
    if (intent === 'send-code') {
      // The form's key: a reload or a double click sends one mail, so the code in it stays valid.
      const { email } = submission.value as { email: string }
      const sent = await relay.call(endpoints.accounts.sendResetCode, { body: { email }, ...formKeyOf(formData) })
      return data({ result: submission.reply({ hideFields: secretFields }), notice: 'common:toast.codeSent', waitSeconds: sent.resend_after })
    }
    const v = submission.value as { email: string; code: string; newPassword: string; confirmPassword: string }
    // docs/product.md: the new password is sent as both new and confirm.
    await relay.call(endpoints.accounts.resetPassword, {
      body: { email: v.email, code: v.code, new_password: v.newPassword, confirm_password: v.confirmPassword },
      ...formKeyOf(formData),
    })
  } catch (error) {
    const wait = intent === 'send-code' ? retryAfterOf(error) : undefined
    if (wait) return data({ result: submission.reply({ hideFields: secretFields }), waitSeconds: wait }, { status: 429 })
    return relayRefusal(submission, error, { hideFields: secretFields, fieldOf })
  }
  return redirect('/auth/login', {
    headers: { 'Set-Cookie': await toastHeader({ type: 'success', key: 'toast.passwordReset' }) },
  })
}

// Public page: zod arrives after hydration, outside the first load (docs/decisions/030-first-paint-and-charts.md).
const clientSchema = lazySchema<typeof resetSchema>(() => import('#app/schemas/auth.ts').then((m) => m.resetSchemaFor))

export default function ForgotPassword({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  // The submitter's intent picks the schema, as in the action.
  const [form, fields] = useZodForm<typeof resetSchema>(clientSchema, { lastResult: actionData?.result })
  const notice = actionData && 'notice' in actionData ? (actionData.notice as string | undefined) : undefined
  const wait = useCodeWait(actionData && 'waitSeconds' in actionData ? (actionData.waitSeconds as number) : undefined, actionData)
  return (
    <AuthCard title={loaderData.title} subtitle={t('forgot.subtitle')}>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        <button type="submit" name="intent" value="reset" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <HoneypotInputs />
        <FormKey value={loaderData.formKey} />
        <ActionNotice message={notice} />
        <FormErrors id={form.errorId} errors={form.errors} />
        {/* A wait refused a press; after a code sent, the button alone counts. */}
        <CodeWaitNotice left={notice ? 0 : wait.left} />
        <div className="flex gap-2">
          <Field meta={fields.email} label={t('forgot.email')} type="email" autoComplete="email" className="min-w-0 flex-1" />
          {/* Aligned with the input, below the label. */}
          <SendCodeButton {...wait} className="mt-7 shrink-0">
            {t('forgot.sendCode')}
          </SendCodeButton>
        </div>
        <Field meta={fields.code} label={t('forgot.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        <Field meta={fields.newPassword} label={t('forgot.newPassword')} type="password" autoComplete="new-password" hint={t('register.passwordHint')} />
        <Field meta={fields.confirmPassword} label={t('forgot.confirmPassword')} type="password" autoComplete="new-password" />
        <SubmitButton intent="reset" className="w-full">
          {t('forgot.submit')}
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth/login" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {t('forgot.back')}
        </Link>
      </p>
    </AuthCard>
  )
}
