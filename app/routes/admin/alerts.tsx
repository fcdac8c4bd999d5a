/**
 * Alerts (`/admin/alerts`, docs/observability.md "Webhook alerts"): the webhooks that receive
 * them, with a "send test" and remove for each; the incidents open now; every message's delivery
 * and its state; and a form to add a webhook (a `json` one's signing secret is shown once, from
 * the action's reply). The same audited service functions as `npm run admin -- webhook …`.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/alerts'
import { contentLanguages, endpoints, idSchema, webhookKinds, type AlertWebhook, type WebhookDelivery } from '#relay/contract/index.ts'
import { ListPager } from '#app/components/admin/list-controls.tsx'
import { CopyField } from '#app/components/copy-button.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { showToast } from '#app/components/toaster.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { addWebhookSchema } from '#app/schemas/admin-ops.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { badForm, operatorOutcome } from './outcome.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const alerts = await getRelay(context).call(endpoints.alerts.alerts, { query: { page: pageParam(request), pageSize: 20 } })
  // One key per test button too: a reload or a second click of "send test" queues one message.
  return { title: getI18n(context).t('admin:alerts.title'), ...alerts, formKey: newFormKey(), testKeys: Object.fromEntries(alerts.webhooks.map((w) => [w.id, newFormKey()])) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const back = '/admin/alerts'
  const relay = getRelay(context)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'add') {
    const submission = parseWithZod(formData, { schema: addWebhookSchema })
    if (submission.status !== 'success') return invalid(submission)
    try {
      const added = await relay.call(endpoints.alerts.addWebhook, { body: submission.value, ...formKeyOf(formData) })
      // No redirect: a json webhook's secret exists only in this reply.
      return data({ result: submission.reply({ resetForm: true }), added })
    } catch (error) {
      return relayRefusal(submission, error, { failed: 'admin:failed' })
    }
  }
  const id = idSchema.safeParse(formData.get('id'))
  if (!id.success) return badForm(back)
  const params = { id: id.data }
  switch (intent) {
    case 'test':
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.alerts.testWebhook, { params, body: {}, ...formKeyOf(formData) })
        return { type: 'success', key: 'admin:alerts.toast.testQueued' }
      })
    case 'remove':
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.alerts.removeWebhook, { params, body: {} })
        return { type: 'success', key: 'admin:alerts.toast.removed' }
      })
    default:
      return badForm(back)
  }
}

export default function AdminAlerts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  // Typegen merges the action's replies into one shape; only an added webhook carries `added`.
  const added = (actionData as { added?: AlertWebhook & { secret: string | null } } | undefined)?.added
  const { webhooks, open_incidents: open, deliveries } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('alerts.subtitle')} />
      {added ? <AddedWebhook added={added} /> : null}
      <Card data-testid="alert-incidents">
        <CardTitle>{t('alerts.open')}</CardTitle>
        {open.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">{t('alerts.noneOpen')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-zinc-100 dark:divide-zinc-800">
            {open.map((incident) => (
              <li key={incident.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid="alert-incident">
                <span className="flex min-w-0 flex-wrap items-center gap-2">
                  <Badge tone="red">{t(`alerts.events.${incident.event}`)}</Badge>
                  <span className="font-mono text-xs break-all">{incident.subject}</span>
                </span>
                <span className="text-xs text-zinc-500 dark:text-zinc-400">
                  {t('alerts.since')} <LocalTime ms={incident.opened_timestamp} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {webhooks.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="webhooks-empty">
            {t('alerts.empty')}
          </p>
        </Card>
      ) : (
        <ul className="grid gap-4 xl:grid-cols-2" data-testid="webhooks">
          {webhooks.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} testKey={loaderData.testKeys[webhook.id]!} />
          ))}
        </ul>
      )}
      <AddWebhook formKey={loaderData.formKey} lastResult={added ? undefined : actionData?.result} />
      <Card>
        <CardTitle>{t('alerts.deliveries')}</CardTitle>
        {deliveries.items.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">{t('alerts.noDeliveries')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('alerts.deliveries')}
            testId="deliveries"
            className="mt-3"
            columns={[
              { id: 'when', label: t('alerts.when') },
              { id: 'what', label: t('alerts.what') },
              { id: 'webhook', label: t('alerts.webhook') },
              { id: 'state', label: t('alerts.state') },
            ]}
          >
            {deliveries.items.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </Table>
        )}
        <ListPager page={deliveries.page} pageSize={deliveries.pageSize} total={deliveries.total} />
      </Card>
    </div>
  )
}

function AddedWebhook({ added }: { added: AlertWebhook & { secret: string | null } }) {
  const { t } = useTranslation('admin')
  // With JavaScript the success also shows as a toast; without it this panel is the message.
  useEffect(() => {
    showToast({ type: 'success', key: 'admin:alerts.toast.added' })
  }, [added])
  return (
    <section
      aria-labelledby="added-title"
      data-testid="added-webhook"
      className="space-y-4 rounded-2xl border border-emerald-200 bg-emerald-50 p-5 sm:p-6 dark:border-emerald-900/60 dark:bg-emerald-950/30"
    >
      <h2 id="added-title" className="text-base font-semibold text-emerald-900 dark:text-emerald-100">
        {t('alerts.added', { name: added.name })}
      </h2>
      {added.secret ? (
        <>
          <Notice tone="warning">{t('alerts.secretOnce')}</Notice>
          <CopyField id="webhook-secret" label={t('alerts.secret')} value={added.secret} copyText={t('alerts.copy')} />
        </>
      ) : null}
      <Link to="/admin/alerts" className={buttonClass({ variant: 'secondary' })}>
        {t('alerts.done')}
      </Link>
    </section>
  )
}

function WebhookCard({ webhook, testKey }: { webhook: AlertWebhook; testKey: string }) {
  const { t } = useTranslation('admin')
  return (
    <li>
      <Card className="h-full space-y-3" data-testid="webhook" data-webhook={webhook.id}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold break-words">
              {webhook.name}
              <Badge tone="sky">{t(`alerts.kinds.${webhook.kind}`)}</Badge>
              {webhook.signed ? <Badge tone="green">{t('alerts.signed')}</Badge> : null}
            </h2>
            <p className="mt-1 font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">{webhook.url_hint}</p>
          </div>
          <span className="text-xs text-zinc-500 dark:text-zinc-400">{t(`alerts.languages.${webhook.language}`)}</span>
        </div>
        <div className="flex flex-wrap gap-2 border-t border-zinc-100 pt-3 dark:border-zinc-800">
          <Form method="post">
            <FormKey value={testKey} />
            <input type="hidden" name="id" value={webhook.id} />
            <SubmitButton intent="test" variant="secondary" size="sm">
              {t('alerts.test')}
            </SubmitButton>
          </Form>
          <Form method="post">
            <input type="hidden" name="id" value={webhook.id} />
            <ConfirmDisclosure label={t('alerts.remove')} cancelLabel={t('catalog.cancel')} message={t('alerts.removeConfirm', { name: webhook.name })}>
              <SubmitButton intent="remove" variant="danger" size="sm">
                {t('alerts.remove')}
              </SubmitButton>
            </ConfirmDisclosure>
          </Form>
        </div>
      </Card>
    </li>
  )
}

const statusTones: Record<WebhookDelivery['status'], BadgeTone> = { pending: 'amber', sending: 'sky', sent: 'green', failed: 'red', skipped: 'zinc' }

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation('admin')
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 align-top md:table-row md:py-0" data-testid="delivery" data-status={delivery.status}>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm md:whitespace-nowrap dark:text-zinc-400">
        <LocalTime ms={delivery.create_timestamp} />
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        <span className="flex flex-wrap items-center gap-1.5">
          <Badge tone={delivery.phase === 'firing' ? 'red' : delivery.phase === 'resolved' ? 'green' : 'indigo'}>{t(`alerts.phases.${delivery.phase}`)}</Badge>
          <span>{t(`alerts.events.${delivery.event}`)}</span>
        </span>
        <span className="block font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">{delivery.subject}</span>
      </td>
      <td className="md:table-cell md:py-3 md:pr-3">{delivery.webhook_name}</td>
      <td className="justify-self-end md:table-cell md:py-3">
        <Badge tone={statusTones[delivery.status]}>{t(`alerts.statuses.${delivery.status}`)}</Badge>
        <span className="mt-1 block text-xs text-zinc-500 dark:text-zinc-400">
          {t('alerts.attempts', { count: delivery.attempts })}
          {delivery.next_attempt_timestamp !== null ? (
            <>
              {' · '}
              {t('alerts.next')} <LocalTime ms={delivery.next_attempt_timestamp} />
            </>
          ) : null}
        </span>
        {delivery.last_error && delivery.status !== 'sent' ? <span className="mt-1 block max-w-xs text-xs break-words text-red-700 dark:text-red-300">{delivery.last_error}</span> : null}
      </td>
    </tr>
  )
}

function AddWebhook({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(addWebhookSchema, { lastResult, defaultValue: { kind: 'json', language: 'zh' } })
  return (
    <Card>
      <CardTitle>{t('alerts.add')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('alerts.addHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="add-webhook">
        <FormKey value={formKey} />
        <div className="sm:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <Field meta={fields.name} label={t('alerts.name')} maxLength={64} autoComplete="off" />
        <SelectField meta={fields.kind} label={t('alerts.kind')} options={webhookKinds.map((kind) => ({ value: kind, label: t(`alerts.kinds.${kind}`) }))} />
        <Field meta={fields.url} label={t('alerts.url')} hint={t('alerts.urlHint')} type="url" autoComplete="off" className="sm:col-span-2" />
        <Field meta={fields.secret} label={t('alerts.secretOptional')} hint={t('alerts.secretHint')} type="password" autoComplete="off" />
        <SelectField meta={fields.language} label={t('alerts.language')} options={contentLanguages.map((lang) => ({ value: lang, label: t(`alerts.languages.${lang}`) }))} />
        <div className="flex items-end sm:col-span-2 sm:justify-end">
          <SubmitButton intent="add">{t('alerts.submit')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}
