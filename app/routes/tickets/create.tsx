/**
 * A new ticket (docs/product.md "Ticket create", §5): type, priority, title and content; the 1–2
 * working days promise; success opens the ticket with a toast.
 */
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { Route } from './+types/create'
import { endpoints, ticketBounds, ticketPriorities, ticketTypes } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { RadioField } from '#app/components/forms/radio-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { createTicketSchema } from '#app/schemas/tickets.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export function loader({ context }: Route.LoaderArgs) {
  return { title: getI18n(context).t('tickets:create.title'), formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: createTicketSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // A repeat of this form (reload, double click) gets the ticket the first one opened.
    const ticket = await getRelay(context).call(endpoints.tickets.create, { body: submission.value, ...formKeyOf(formData) })
    return redirectWithToast(`/tickets/${ticket.id}`, {
      type: 'success',
      key: 'tickets:create.created',
      values: { number: ticket.number },
    })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'tickets:create.failed' })
  }
}

export default function CreateTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('tickets')
  const [form, fields] = useZodForm(createTicketSchema, { lastResult: actionData?.result, defaultValue: { priority: 'medium' } })
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('create.subtitle')}
        above={<BackLink to="/tickets">{t('create.cancel')}</BackLink>}
      />
      <Card>
        <Form method="post" {...getFormProps(form)} className="space-y-5">
          <FormKey value={loaderData.formKey} />
          <Notice tone="info">{t('create.promise')}</Notice>
          <FormErrors id={form.errorId} errors={form.errors} />
          <RadioField
            meta={fields.type}
            legend={t('create.type')}
            options={ticketTypes.map((type) => ({ value: type, label: t(`types.${type}`), hint: t(`typeHints.${type}`) }))}
            cards
          />
          <RadioField
            meta={fields.priority}
            legend={t('create.priority')}
            options={ticketPriorities.map((priority) => ({ value: priority, label: t(`priorities.${priority}`) }))}
          />
          <Field
            meta={fields.title}
            label={t('create.titleLabel')}
            hint={t('create.titleHint', { max: ticketBounds.title.max })}
            maxLength={ticketBounds.title.max}
            autoComplete="off"
          />
          <TextareaField
            meta={fields.content}
            label={t('create.content')}
            hint={t('create.contentHint')}
            maxLength={ticketBounds.content.max}
            rows={8}
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to="/tickets" className={buttonClass({ variant: 'secondary' })}>
              {t('create.cancel')}
            </Link>
            <SubmitButton>{t('create.submit')}</SubmitButton>
          </div>
        </Form>
      </Card>
    </div>
  )
}
