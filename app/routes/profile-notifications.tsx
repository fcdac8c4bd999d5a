/**
 * Mail notification settings (docs/decisions/125-mail-and-announcements.md): which kinds of mail the user gets and the
 * balance threshold. A real form: it works without JavaScript, and a refused save keeps what was typed.
 */
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { Route } from './+types/profile-notifications'
import { balanceThresholdMax, endpoints, notificationKinds } from '#relay/contract/index.ts'
import { Checkbox } from '#app/components/forms/checkbox.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { notificationSettingsFormSchema } from '#app/schemas/notifications.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await getRelay(context).call(endpoints.notifications.settings)
  return { title: getI18n(context).t('notifications:title'), settings }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: notificationSettingsFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    await getRelay(context).call(endpoints.notifications.saveSettings, { body: { ...submission.value, balance_threshold: submission.value.balance_threshold ?? null } })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'notifications:failed' })
  }
  return redirectWithToast('/profile/notifications', { type: 'success', key: 'notifications:saved' })
}

export default function NotificationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications')
  const { settings } = loaderData
  const [form, fields] = useZodForm(notificationSettingsFormSchema, {
    lastResult: actionData?.result,
    defaultValue: { ...settings, balance_threshold: settings.balance_threshold ?? undefined },
  })
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('subtitle')}
        above={<BackLink to="/profile">{t('back')}</BackLink>}
      />
      <Card aria-labelledby="kinds-title">
        <CardTitle id="kinds-title">{t('kinds.title')}</CardTitle>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5" data-testid="notification-settings">
          <FormErrors id={form.errorId} errors={form.errors} />
          {notificationKinds.map((kind) => (
            <div key={kind} className="space-y-3">
              <Checkbox meta={fields[kind]}>
                <span className="font-medium text-zinc-900 dark:text-zinc-100">{t(`kinds.${kind}`)}</span>
                <span className="block text-xs text-zinc-500 dark:text-zinc-400">{t(`kinds.${kind}Hint`)}</span>
              </Checkbox>
              {kind === 'balance_low' ? (
                <Field
                  meta={fields.balance_threshold}
                  label={t('threshold')}
                  hint={t('thresholdHint')}
                  type="number"
                  min={1}
                  max={balanceThresholdMax}
                  inputMode="numeric"
                  className="ml-6 max-w-60"
                />
              ) : null}
            </div>
          ))}
          <div className="flex justify-end border-t border-zinc-100 pt-5 dark:border-zinc-800">
            <SubmitButton className="w-full sm:w-auto">{t('submit')}</SubmitButton>
          </div>
        </Form>
      </Card>
    </div>
  )
}
