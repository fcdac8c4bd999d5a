/**
 * Upstream providers (`/admin/providers`): each with its priority, model patterns, state, circuit
 * and last day of calls; add one (its key is sent once and only its masked tail is ever shown),
 * change priority and patterns, enable or disable, and send one minimal test call whose status and
 * time come back as a toast; find them by kind and state, and enable or disable those ticked
 * together. The same service functions as `npm run admin -- provider …`.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, useLocation } from 'react-router'
import type { Route } from './+types/providers'
import { endpoints, idSchema, providerKinds, providerStates, type AdminProvider } from '#relay/contract/index.ts'
import { BulkForm, RowCheck } from '#app/components/admin/bulk-actions.tsx'
import { FilterForm, FilterSelect, oneOf } from '#app/components/admin/list-controls.tsx'
import { CircuitBadge, EnabledBadge, Latency, SuccessRate } from '#app/components/admin/ops-figures.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { addProviderSchema, updateProviderSchema } from '#app/schemas/admin-ops.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast, type ToastInput } from '#app/utils/toast.server.ts'
import { badForm, bulkOutcome, operatorOutcome } from './outcome.server.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

const bulkFormId = 'bulk-providers'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const filter = { kind: oneOf(url, 'kind', providerKinds), state: oneOf(url, 'state', providerStates) }
  const providers = await getRelay(context).call(endpoints.adminOps.providers, { query: filter })
  return { title: getI18n(context).t('admin:ops.providers.title'), providers: providers.items, filter, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  const relay = getRelay(context)
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'enable-chosen' || intent === 'disable-chosen') {
    return bulkOutcome(back, formData, async (ids) => {
      const enabled = intent === 'enable-chosen'
      const { changed } = await relay.call(endpoints.adminOps.setProvidersEnabled, { body: { ids, enabled } })
      return { type: 'success', key: enabled ? 'admin:bulk.providersEnabled' : 'admin:bulk.providersDisabled', values: { count: changed } }
    })
  }
  if (intent === 'add') {
    const submission = parseWithZod(formData, { schema: addProviderSchema })
    if (submission.status !== 'success') return invalid(submission)
    try {
      await relay.call(endpoints.adminOps.addProvider, { body: submission.value, ...formKeyOf(formData) })
    } catch (error) {
      return relayRefusal(submission, error, { failed: 'admin:failed' })
    }
    return redirectWithToast(back, { type: 'success', key: 'admin:ops.toast.providerAdded' })
  }
  const id = idSchema.safeParse(formData.get('id'))
  if (!id.success) return badForm(back)
  const params = { id: id.data }
  switch (intent) {
    case 'update': {
      const parsed = updateProviderSchema.safeParse({ models: formData.get('models'), model_map: formData.get('model_map') ?? '', priority: formData.get('priority') })
      if (!parsed.success) return redirectWithToast(back, { type: 'error', key: parsed.error.issues[0]!.message })
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.adminOps.updateProvider, { params, body: parsed.data })
        return { type: 'success', key: 'admin:ops.toast.providerUpdated' }
      })
    }
    case 'enable':
    case 'disable':
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.adminOps.setProviderEnabled, { params, body: { enabled: intent === 'enable' } })
        return { type: 'success', key: intent === 'enable' ? 'admin:ops.toast.providerEnabled' : 'admin:ops.toast.providerDisabled' }
      })
    case 'remove':
      try {
        await relay.call(endpoints.adminOps.removeProvider, { params })
      } catch (error) {
        // Already gone (a second click, another operator): what was asked for holds.
        if (!(error instanceof RelayCallError && error.status === 404)) return operatorOutcome(back, () => Promise.reject(error))
      }
      return redirectWithToast(back, { type: 'success', key: 'admin:ops.toast.providerRemoved' })
    case 'test':
      return operatorOutcome(back, async (): Promise<ToastInput> => {
        const test = await relay.call(endpoints.adminOps.testProvider, { params, body: {} })
        return test.ok
          ? { type: 'success', key: 'admin:ops.toast.testOk', values: { model: test.model, status: test.status ?? 0, ms: test.latency_ms } }
          : { type: 'error', key: 'admin:ops.toast.testFailed', values: { model: test.model, error: test.error ?? '', ms: test.latency_ms }, duration: 0 }
      })
    default:
      return badForm(back)
  }
}

export default function AdminProviders({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { filter } = loaderData
  // Each answer starts with nothing ticked, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('ops.providers.subtitle')} />
      <FilterForm testId="provider-filter">
        <FilterSelect name="kind" label={t('ops.providers.kind')} value={filter.kind} options={providerKinds.map((kind) => ({ value: kind, label: t(`ops.providers.kinds.${kind}`) }))} />
        <FilterSelect name="state" label={t('ops.providers.state')} value={filter.state} options={providerStates.map((state) => ({ value: state, label: t(`ops.providers.states.${state}`) }))} />
      </FilterForm>
      {loaderData.providers.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-sm text-zinc-500 dark:text-zinc-400" data-testid="providers-empty">
            {t('ops.providers.empty')}
          </p>
        </Card>
      ) : (
        <div key={page} className="space-y-4">
          <Card>
            <BulkForm id={bulkFormId}>
              <SubmitButton intent="enable-chosen" variant="secondary" size="sm">
                {t('bulk.enable')}
              </SubmitButton>
              <ConfirmDisclosure label={t('bulk.disable')} cancelLabel={t('catalog.cancel')} message={t('bulk.disableProvidersConfirm')} data-testid="bulk-disable">
                <SubmitButton intent="disable-chosen" variant="danger" size="sm">
                  {t('bulk.disableProvidersSubmit')}
                </SubmitButton>
              </ConfirmDisclosure>
            </BulkForm>
          </Card>
          <ul className="grid gap-4 xl:grid-cols-2" data-testid="providers">
            {loaderData.providers.map((provider) => (
              <ProviderCard key={provider.id} provider={provider} />
            ))}
          </ul>
        </div>
      )}
      <AddProvider formKey={loaderData.formKey} lastResult={actionData?.result} />
    </div>
  )
}

function ProviderCard({ provider }: { provider: AdminProvider }) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  const facts: Array<[string, React.ReactNode]> = [
    [t('ops.providers.key'), <code className="font-mono text-xs">{provider.key}</code>],
    [t('ops.providers.calls24h'), numbers.format(provider.recent.calls)],
    [t('ops.providers.success'), <SuccessRate figures={provider.recent} />],
    [t('ops.providers.firstByte'), <Latency below={provider.recent.first_byte_p50_below_ms} />],
  ]
  return (
    <li>
      <Card className="h-full space-y-4" data-testid="provider-card" data-provider={provider.id}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="flex min-w-0 items-start gap-3">
            <span className="pt-1">
              <RowCheck form={bulkFormId} value={provider.id} label={t('bulk.chooseRow', { name: provider.label })} />
            </span>
            <div className="min-w-0">
              <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold">
                <span className="[overflow-wrap:anywhere]" data-testid="provider-label">
                  {provider.label}
                </span>
                <EnabledBadge enabled={provider.enabled} />
                <CircuitBadge provider={provider} />
              </h2>
              <p className="mt-1 font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">{provider.base_url}</p>
            </div>
          </div>
          <span className="font-mono text-xs text-zinc-400 dark:text-zinc-500">#{provider.id}</span>
        </div>
        {provider.key_readable ? null : <Notice tone="warning">{t('ops.providers.keyUnreadable')}</Notice>}
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
          {facts.map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}</dt>
              <dd className="mt-0.5 tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        <Link to={`/admin?period=7d&provider_id=${provider.id}#over-time`} className="inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400" data-testid="provider-over-time">
          {t('ops.providers.overTime')} →
        </Link>
        <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_7rem] sm:items-end" data-testid="provider-edit">
          <input type="hidden" name="id" value={provider.id} />
          <div className="min-w-0 space-y-1.5">
            <Label htmlFor={`models-${provider.id}`}>{t('ops.providers.models')}</Label>
            <input id={`models-${provider.id}`} name="models" defaultValue={provider.models.join(', ')} required className={inputClass} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`priority-${provider.id}`}>{t('ops.providers.priority')}</Label>
            <input id={`priority-${provider.id}`} name="priority" type="number" min={-1000} max={1000} defaultValue={provider.priority} required className={inputClass} />
          </div>
          <div className="min-w-0 space-y-1.5">
            <Label htmlFor={`map-${provider.id}`}>{t('ops.providers.map')}</Label>
            <input
              id={`map-${provider.id}`}
              name="model_map"
              defaultValue={provider.model_map.map(({ from, to }) => `${from}=${to}`).join(', ')}
              placeholder="claude-opus-4-8=claude-opus-4-8-20261015"
              autoComplete="off"
              className={inputClass}
            />
          </div>
          <SubmitButton intent="update" variant="secondary">
            {t('ops.providers.save')}
          </SubmitButton>
        </Form>
        <div className="flex flex-wrap gap-2 border-t border-zinc-100 pt-4 dark:border-zinc-800">
          <Form method="post">
            <input type="hidden" name="id" value={provider.id} />
            <SubmitButton intent="test" variant="secondary" size="sm">
              {t('ops.providers.test')}
            </SubmitButton>
          </Form>
          <Form method="post">
            <input type="hidden" name="id" value={provider.id} />
            {provider.enabled ? (
              <ConfirmDisclosure label={t('ops.providers.disable')} cancelLabel={t('catalog.cancel')} message={t('ops.providers.disableConfirm', { url: provider.base_url })}>
                <SubmitButton intent="disable" variant="danger" size="sm">
                  {t('ops.providers.disable')}
                </SubmitButton>
              </ConfirmDisclosure>
            ) : (
              <SubmitButton intent="enable" size="sm">
                {t('ops.providers.enable')}
              </SubmitButton>
            )}
          </Form>
          <Form method="post" data-testid="provider-remove">
            <input type="hidden" name="id" value={provider.id} />
            <ConfirmDisclosure label={t('ops.providers.remove')} cancelLabel={t('catalog.cancel')} message={t('ops.providers.removeConfirm', { name: provider.label })}>
              <SubmitButton intent="remove" variant="danger" size="sm">
                {t('ops.providers.remove')}
              </SubmitButton>
            </ConfirmDisclosure>
          </Form>
          {provider.models.length > 0 ? (
            <span className="ml-auto flex flex-wrap items-center gap-1">
              {provider.models.map((model) => (
                <Badge key={model} tone="sky" className="font-mono">
                  {model}
                </Badge>
              ))}
              {provider.model_map.map(({ from, to }) => (
                <Badge key={from} tone="zinc" className="font-mono" data-testid="provider-mapping">
                  {from} → {to}
                </Badge>
              ))}
            </span>
          ) : null}
        </div>
      </Card>
    </li>
  )
}

function AddProvider({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(addProviderSchema, { lastResult, defaultValue: { kind: 'anthropic', models: 'claude-*', priority: '0' } })
  return (
    <Card>
      <CardTitle>{t('ops.providers.add')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('ops.providers.addHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="add-provider">
        <FormKey value={formKey} />
        <div className="sm:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <SelectField meta={fields.kind} label={t('ops.providers.kind')} options={providerKinds.map((kind) => ({ value: kind, label: t(`ops.providers.kinds.${kind}`) }))} />
        <Field meta={fields.base_url} label={t('ops.providers.baseUrl')} hint={t('ops.providers.baseUrlHint')} type="url" autoComplete="off" />
        <Field meta={fields.key} label={t('ops.providers.apiKey')} hint={t('ops.providers.keyHint')} type="password" autoComplete="off" />
        <Field meta={fields.models} label={t('ops.providers.models')} hint={t('ops.providers.modelsHint')} autoComplete="off" />
        <Field meta={fields.model_map} label={t('ops.providers.map')} hint={t('ops.providers.mapHint')} autoComplete="off" placeholder="claude-opus-4-8=claude-opus-4-8-20261015" />
        <Field meta={fields.priority} label={t('ops.providers.priority')} hint={t('ops.providers.priorityHint')} type="number" inputMode="numeric" />
        <div className="flex items-end sm:justify-end">
          <SubmitButton intent="add">{t('ops.providers.submit')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}
