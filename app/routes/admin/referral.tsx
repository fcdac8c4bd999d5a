/**
 * The referral rule: what inviter and invitee get for the invitee's first paid purchase and for
 * each later one. The same service function as the CLI's `referral rule set`.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { Route } from './+types/referral'
import { endpoints, type ReferralReward, type ReferralRule } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Card } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { referralRuleFormSchema } from '#app/schemas/admin-catalog.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ context }: Route.LoaderArgs) {
  const rule = await getRelay(context).call(endpoints.admin.referralRule)
  return { title: getI18n(context).t('admin:catalog.referral.title'), rule }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: referralRuleFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    await getRelay(context).call(endpoints.admin.setReferralRule, { body: submission.value })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast('/admin/referral', { type: 'success', key: 'admin:catalog.toast.referralSaved' })
}

const purchases = ['first', 'later'] as const
const amounts = [
  ['inviter_points', 'inviterPoints'],
  ['invitee_points', 'inviteePoints'],
  ['inviter_days', 'inviterDays'],
  ['invitee_days', 'inviteeDays'],
] as const satisfies ReadonlyArray<readonly [keyof ReferralReward, string]>

const asText = (reward: ReferralReward) => Object.fromEntries(amounts.map(([field]) => [field, String(reward[field])])) as Record<keyof ReferralReward, string>

export default function AdminReferral({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('catalog.referral.subtitle')} />
      <RuleForm rule={loaderData.rule} lastResult={actionData?.result} />
    </div>
  )
}

function RuleForm({ rule, lastResult }: { rule: ReferralRule; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(referralRuleFormSchema, { lastResult, defaultValue: { first: asText(rule.first), later: asText(rule.later) } })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6" data-testid="referral-rule">
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-6 lg:grid-cols-2">
        {purchases.map((purchase) => {
          const reward = fields[purchase].getFieldset()
          return (
            <Card key={purchase}>
              <fieldset className="grid gap-4 sm:grid-cols-2">
                <legend className="mb-3 text-base font-semibold text-zinc-900 dark:text-zinc-100">{t(`catalog.referral.${purchase}`)}</legend>
                {amounts.map(([field, label]) => (
                  <Field key={field} meta={reward[field]} label={t(`catalog.referral.${label}`)} inputMode="numeric" />
                ))}
              </fieldset>
            </Card>
          )
        })}
      </div>
      <SubmitButton>{t('catalog.referral.submit')}</SubmitButton>
    </Form>
  )
}
