/**
 * The providers' list prices (relay/public-stats/list-prices.ts) that the public price page's
 * savings and the reconciliation report compare with, with the day they were read and that day's
 * exchange rate: replaced at once, as a new read of the providers' pages, one price a line.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { Route } from './+types/list-prices'
import { endpoints, type AdminListPrices } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Card } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { listPricesBody, listPricesFormSchema, listPricesText } from '#app/schemas/admin-ops.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ context }: Route.LoaderArgs) {
  const list = await getRelay(context).call(endpoints.adminOps.listPrices)
  return { title: getI18n(context).t('admin:listPrices.title'), list }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: listPricesFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    await getRelay(context).call(endpoints.adminOps.setListPrices, { body: listPricesBody(submission.value) })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast('/admin/list-prices', { type: 'success', key: 'admin:listPrices.saved' })
}

export default function AdminListPrices({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('listPrices.subtitle')} />
      <ListPricesForm list={loaderData.list} lastResult={actionData?.result} />
    </div>
  )
}

function ListPricesForm({ list, lastResult }: { list: AdminListPrices; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(listPricesFormSchema, { lastResult, defaultValue: listPricesText(list) })
  return (
    <Card>
      <Form method="post" {...getFormProps(form)} className="space-y-4" data-testid="list-prices">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.read_on} type="date" label={t('listPrices.readOn')} hint={t('listPrices.readOnHint')} />
          <Field meta={fields.cny_per_usd} label={t('listPrices.rate')} hint={t('listPrices.rateHint')} inputMode="decimal" />
        </div>
        <TextareaField meta={fields.lines} label={t('listPrices.lines')} hint={t('listPrices.linesHint')} rows={16} spellCheck={false} className="font-mono" />
        <SubmitButton>{t('listPrices.submit')}</SubmitButton>
      </Form>
    </Card>
  )
}
