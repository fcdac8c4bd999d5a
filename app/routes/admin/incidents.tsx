/**
 * Incidents on the public status page: post one, correct its title and text, mark it resolved.
 * The same audited service as `npm run admin -- incident …`; `/status` shows them at once.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { Route } from './+types/incidents'
import { endpoints, idSchema, type AdminIncident } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { incidentFormSchema } from '#app/schemas/admin-ops.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { badForm, operatorOutcome } from './outcome.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ context }: Route.LoaderArgs) {
  const { items } = await getRelay(context).call(endpoints.admin.incidents)
  return { title: getI18n(context).t('admin:incidents.title'), items, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const back = '/admin/incidents'
  const relay = getRelay(context)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'update' || intent === 'resolve') {
    const id = idSchema.safeParse(formData.get('id'))
    if (!id.success) return badForm(back)
    const params = { id: id.data }
    if (intent === 'resolve') {
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.admin.resolveIncident, { params })
        return { type: 'success', key: 'admin:toast.incidentResolved' }
      })
    }
    const parsed = incidentFormSchema.safeParse({ title: formData.get('title'), body: formData.get('body') ?? undefined })
    if (!parsed.success) return redirectWithToast(back, { type: 'error', key: parsed.error.issues[0]!.message })
    return operatorOutcome(back, async () => {
      await relay.call(endpoints.admin.updateIncident, { params, body: parsed.data })
      return { type: 'success', key: 'admin:toast.incidentUpdated' }
    })
  }
  const submission = parseWithZod(formData, { schema: incidentFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    await relay.call(endpoints.admin.createIncident, { body: submission.value, ...formKeyOf(formData) })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast(back, { type: 'success', key: 'admin:toast.incidentCreated' })
}

export default function AdminIncidents({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('incidents.subtitle')} />
      <CreateCard formKey={loaderData.formKey} lastResult={actionData?.result} />
      {loaderData.items.length === 0 ? (
        <Card>
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="incidents-empty">
            {t('incidents.empty')}
          </p>
        </Card>
      ) : (
        <ul className="space-y-4" data-testid="incidents">
          {loaderData.items.map((incident) => (
            <IncidentCard key={incident.id} incident={incident} />
          ))}
        </ul>
      )}
    </div>
  )
}

function CreateCard({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(incidentFormSchema, { lastResult })
  return (
    <Card>
      <CardTitle>{t('incidents.create')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" data-testid="create-incident">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.title} label={t('incidents.titleLabel')} maxLength={200} autoComplete="off" />
        <TextareaField meta={fields.body} label={t('incidents.body')} hint={t('incidents.bodyHint')} maxLength={4000} rows={3} />
        <SubmitButton className="w-full sm:w-auto">{t('incidents.submit')}</SubmitButton>
      </Form>
    </Card>
  )
}

function IncidentCard({ incident }: { incident: AdminIncident }) {
  const { t } = useTranslation('admin')
  const open = incident.resolved_timestamp === null
  return (
    <li>
      <Card className="space-y-3" data-testid="incident" data-state={open ? 'open' : 'resolved'}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="text-base font-semibold break-words">{incident.title}</h2>
            <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
              {t('incidents.started')} <LocalTime ms={incident.start_timestamp} />
              {incident.resolved_timestamp !== null ? (
                <>
                  {' · '}
                  {t('incidents.resolvedAt')} <LocalTime ms={incident.resolved_timestamp} />
                </>
              ) : null}
            </p>
          </div>
          <Badge tone={open ? 'amber' : 'green'}>{open ? t('incidents.open') : t('incidents.resolved')}</Badge>
        </div>
        {incident.body ? <p className="text-sm break-words whitespace-pre-line text-zinc-700 dark:text-zinc-300">{incident.body}</p> : null}
        <details className="group rounded-lg border border-zinc-200 dark:border-zinc-800">
          <summary className="cursor-pointer list-none rounded-lg px-3 py-2 text-sm font-semibold text-indigo-600 hover:bg-zinc-50 dark:text-indigo-400 dark:hover:bg-zinc-800/60 [&::-webkit-details-marker]:hidden">
            {t('incidents.edit')}
          </summary>
          <Form method="post" className="space-y-3 border-t border-zinc-200 p-3 dark:border-zinc-800" data-testid="edit-incident">
            <input type="hidden" name="id" value={incident.id} />
            <div className="space-y-1.5">
              <Label htmlFor={`incident-title-${incident.id}`}>{t('incidents.titleLabel')}</Label>
              <input id={`incident-title-${incident.id}`} name="title" defaultValue={incident.title} required maxLength={200} className={inputClass} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`incident-body-${incident.id}`}>{t('incidents.body')}</Label>
              <textarea id={`incident-body-${incident.id}`} name="body" defaultValue={incident.body ?? ''} maxLength={4000} rows={3} className={inputClass} />
            </div>
            <SubmitButton intent="update" variant="secondary" size="sm">
              {t('incidents.save')}
            </SubmitButton>
          </Form>
        </details>
        {open ? (
          <Form method="post">
            <input type="hidden" name="id" value={incident.id} />
            <SubmitButton intent="resolve" size="sm">
              {t('incidents.resolve')}
            </SubmitButton>
          </Form>
        ) : null}
      </Card>
    </li>
  )
}
