/**
 * Model prices (`/admin/pricing`): every model and pattern with its rates and what a typical call
 * costs at it (the relay computes it with the billing function, docs/decisions/115-operator-console.md); set a price
 * (a new name adds a row, an existing one is replaced), edit one (`?edit=` fills the form, without
 * JavaScript too), remove one or those ticked, export them as CSV, find them by model text. The
 * same service functions as `npm run admin -- model-cost …`.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, useLocation } from 'react-router'
import type { Route } from './+types/pricing'
import { endpoints, modelCostKinds, type AdminPrice } from '#relay/contract/index.ts'
import { BulkForm, RowCheck } from '#app/components/admin/bulk-actions.tsx'
import { FilterForm, FilterInput } from '#app/components/admin/list-controls.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { priceSchema } from '#app/schemas/admin-ops.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { badForm, bulkOutcome, operatorOutcome } from './outcome.server.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

const bulkFormId = 'bulk-prices'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const q = url.searchParams.get('q')?.trim().slice(0, 128) || undefined
  const editing = url.searchParams.get('edit')
  const relay = getRelay(context)
  const [prices, edited] = await Promise.all([
    relay.call(endpoints.adminOps.prices, { query: { q } }),
    // The price being edited, whether or not the search shows it.
    editing ? relay.call(endpoints.adminOps.prices, { query: { q: editing } }) : null,
  ])
  return {
    title: getI18n(context).t('admin:ops.pricing.title'),
    prices: prices.items,
    typical: prices.typical,
    q,
    editing: edited?.items.find((price) => price.model === editing) ?? null,
    formKey: newFormKey(),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const back = '/admin/pricing'
  const relay = getRelay(context)
  const formData = await request.formData()
  if (formData.get('intent') === 'remove-chosen') {
    const url = new URL(request.url)
    return bulkOutcome(`${url.pathname}${url.search}`, formData, async (models) => {
      const { changed } = await relay.call(endpoints.adminOps.removePrices, { body: { models } })
      return { type: 'success', key: 'admin:bulk.pricesRemoved', values: { count: changed } }
    })
  }
  if (formData.get('intent') === 'remove') {
    const model = formData.get('model')
    if (typeof model !== 'string' || model.trim() === '') return badForm(back)
    return operatorOutcome(back, async () => {
      await relay.call(endpoints.adminOps.removePrice, { body: { model } })
      return { type: 'success', key: 'admin:ops.toast.priceRemoved', values: { model } }
    })
  }
  const submission = parseWithZod(formData, { schema: priceSchema })
  if (submission.status !== 'success') return invalid(submission)
  const price = submission.value
  try {
    await relay.call(endpoints.adminOps.setPrice, {
      body: {
        ...price,
        points_per_call: price.points_per_call ?? null,
        input_points_per_mtok: price.input_points_per_mtok ?? null,
        output_points_per_mtok: price.output_points_per_mtok ?? null,
        cache_read_points_per_mtok: price.cache_read_points_per_mtok ?? null,
        cache_write_points_per_mtok: price.cache_write_points_per_mtok ?? null,
        cache_write_1h_points_per_mtok: price.cache_write_1h_points_per_mtok ?? null,
        web_search_points: price.web_search_points ?? null,
        long_context_threshold: price.long_context_threshold ?? null,
        long_context_input_percent: price.long_context_threshold === undefined ? null : (price.long_context_input_percent ?? 100),
        long_context_output_percent: price.long_context_threshold === undefined ? null : (price.long_context_output_percent ?? 100),
        description: price.description || null,
      },
      ...formKeyOf(formData),
    })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast(back, { type: 'success', key: 'admin:ops.toast.priceSet', values: { model: price.model } })
}

export default function AdminPricing({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  const { typical } = loaderData
  // Each answer starts with nothing ticked, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('ops.pricing.subtitle')} />
      <PriceForm key={loaderData.editing?.model ?? 'new'} editing={loaderData.editing} formKey={loaderData.formKey} lastResult={actionData?.result} />
      <FilterForm testId="price-filter">
        <FilterInput name="q" label={t('ops.pricing.search')} value={loaderData.q} />
      </FilterForm>
      <Card key={page}>
        <CardTitle>{t('ops.pricing.list')}</CardTitle>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {t('ops.pricing.typicalHint', { input: numbers.format(typical.input_tokens), output: numbers.format(typical.output_tokens) })}
        </p>
        <div className="mt-4 space-y-3">
          <BulkForm id={bulkFormId} exportTo="/admin/pricing/export">
            <ConfirmDisclosure label={t('bulk.remove')} cancelLabel={t('catalog.cancel')} message={t('bulk.removePricesConfirm')} data-testid="bulk-remove">
              <SubmitButton intent="remove-chosen" variant="danger" size="sm">
                {t('bulk.removePricesSubmit')}
              </SubmitButton>
            </ConfirmDisclosure>
          </BulkForm>
          <Table
            phone="stack"
            caption={t('ops.pricing.list')}
            testId="prices"
            columns={[
              { id: 'choose', label: <span className="sr-only">{t('bulk.choose')}</span> },
              { id: 'model', label: t('ops.pricing.model') },
              { id: 'rates', label: t('ops.pricing.rates') },
              { id: 'typical', label: t('ops.pricing.typical'), align: 'end' },
              { id: 'actions', label: '', align: 'end' },
            ]}
          >
            {loaderData.prices.map((price) => (
              <PriceRow key={price.model} price={price} />
            ))}
          </Table>
        </div>
      </Card>
    </div>
  )
}

function PriceRow({ price }: { price: AdminPrice }) {
  const { t, i18n } = useTranslation('admin')
  const numbers = numberFormat(i18n.language)
  const rate = (value: number | null) => (value === null ? '–' : numbers.format(value))
  return (
    <tr className="grid grid-cols-[auto_1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="price-row" data-model={price.model}>
      <td className="row-span-3 pt-0.5 md:table-cell md:w-8 md:py-3 md:pr-3">
        <RowCheck form={bulkFormId} value={price.model} label={t('bulk.chooseRow', { name: price.model })} />
      </td>
      <td className="min-w-0 md:table-cell md:py-3 md:pr-3">
        <span className="font-mono text-sm break-all">{price.model}</span>{' '}
        {price.pattern ? <Badge tone="sky">{t('ops.pricing.pattern')}</Badge> : null}
        {price.description ? <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{price.description}</p> : null}
      </td>
      <td className="col-span-2 col-start-2 row-start-2 text-xs text-zinc-600 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        {price.kind === 'fixed' ? (
          t('ops.pricing.perCall', { points: numbers.format(price.points_per_call ?? 0) })
        ) : (
          <>
            {t('ops.pricing.variableRates', {
              input: rate(price.input_points_per_mtok),
              output: rate(price.output_points_per_mtok),
              read: rate(price.cache_read_points_per_mtok ?? price.input_points_per_mtok),
              write: rate(price.cache_write_points_per_mtok ?? price.input_points_per_mtok),
            })}
            <span className="block">
              {t('ops.pricing.extras', {
                write1h: rate(price.cache_write_1h_points_per_mtok ?? (price.input_points_per_mtok ?? 0) * 2),
                search: numbers.format(price.web_search_points ?? 1),
              })}
            </span>
            {price.long_context_threshold ? (
              <span className="block">
                {t('ops.pricing.tier', {
                  above: numbers.format(price.long_context_threshold),
                  input: price.long_context_input_percent ?? 100,
                  output: price.long_context_output_percent ?? 100,
                })}
              </span>
            ) : null}
          </>
        )}
      </td>
      <td className="justify-self-end text-right font-semibold tabular-nums md:table-cell md:py-3 md:pr-3" data-testid="typical-points">
        {t('ops.pricing.points', { points: numbers.format(price.typical_points) })}
      </td>
      <td className="col-span-2 col-start-2 justify-self-end md:table-cell md:py-3 md:text-right">
        <span className="inline-flex flex-wrap items-start justify-end gap-2">
          <Link to={`?edit=${encodeURIComponent(price.model)}`} className={buttonClass({ variant: 'secondary', size: 'sm' })} aria-label={`${t('ops.pricing.edit')} ${price.model}`}>
            {t('ops.pricing.edit')}
          </Link>
          <ConfirmDisclosure label={t('ops.pricing.remove')} name={`${t('ops.pricing.remove')} ${price.model}`} cancelLabel={t('catalog.cancel')} message={t('ops.pricing.removeConfirm', { model: price.model })}>
            <Form method="post">
              <input type="hidden" name="model" value={price.model} />
              <SubmitButton intent="remove" variant="danger" size="sm">
                {t('ops.pricing.remove')}
              </SubmitButton>
            </Form>
          </ConfirmDisclosure>
        </span>
      </td>
    </tr>
  )
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value))

function PriceForm({ editing, formKey, lastResult }: { editing: AdminPrice | null; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(priceSchema, {
    lastResult,
    defaultValue: editing
      ? {
          model: editing.model,
          kind: editing.kind,
          points_per_call: text(editing.points_per_call),
          input_points_per_mtok: text(editing.input_points_per_mtok),
          output_points_per_mtok: text(editing.output_points_per_mtok),
          cache_read_points_per_mtok: text(editing.cache_read_points_per_mtok),
          cache_write_points_per_mtok: text(editing.cache_write_points_per_mtok),
          cache_write_1h_points_per_mtok: text(editing.cache_write_1h_points_per_mtok ?? null),
          web_search_points: text(editing.web_search_points ?? null),
          long_context_threshold: text(editing.long_context_threshold),
          long_context_input_percent: text(editing.long_context_input_percent),
          long_context_output_percent: text(editing.long_context_output_percent),
          description: editing.description ?? '',
        }
      : { kind: 'variable' },
  })
  return (
    <Card data-testid="price-form-card">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle>{editing ? t('ops.pricing.editTitle', { model: editing.model }) : t('ops.pricing.add')}</CardTitle>
        {editing ? (
          <Link to="/admin/pricing" className="text-sm font-medium text-indigo-600 dark:text-indigo-400">
            {t('ops.pricing.cancel')}
          </Link>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('ops.pricing.addHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" data-testid="price-form">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field meta={fields.model} label={t('ops.pricing.model')} hint={t('ops.pricing.modelHint')} autoComplete="off" readOnly={editing !== null} />
          <SelectField meta={fields.kind} label={t('ops.pricing.kind')} options={modelCostKinds.map((kind) => ({ value: kind, label: t(`ops.pricing.kinds.${kind}`) }))} />
          <Field meta={fields.points_per_call} label={t('ops.pricing.pointsPerCall')} hint={t('ops.pricing.fixedOnly')} type="number" min={0} inputMode="numeric" />
        </div>
        <div className="grid gap-4 sm:grid-cols-4">
          <Field meta={fields.input_points_per_mtok} label={t('ops.pricing.input')} type="number" min={0} inputMode="numeric" />
          <Field meta={fields.output_points_per_mtok} label={t('ops.pricing.output')} type="number" min={0} inputMode="numeric" />
          <Field meta={fields.cache_read_points_per_mtok} label={t('ops.pricing.cacheRead')} hint={t('ops.pricing.asInput')} type="number" min={0} inputMode="numeric" />
          <Field meta={fields.cache_write_points_per_mtok} label={t('ops.pricing.cacheWrite')} hint={t('ops.pricing.asInput')} type="number" min={0} inputMode="numeric" />
        </div>
        <div className="grid gap-4 sm:grid-cols-4">
          <Field meta={fields.cache_write_1h_points_per_mtok} label={t('ops.pricing.cacheWrite1h')} hint={t('ops.pricing.twiceInput')} type="number" min={0} inputMode="numeric" />
          <Field meta={fields.web_search_points} label={t('ops.pricing.webSearch')} hint={t('ops.pricing.webSearchDefault')} type="number" min={0} inputMode="numeric" />
        </div>
        <details className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" open={editing?.long_context_threshold ? true : undefined}>
          <summary className="cursor-pointer text-sm font-medium">{t('ops.pricing.tierTitle')}</summary>
          <div className="mt-4 grid gap-4 sm:grid-cols-3">
            <Field meta={fields.long_context_threshold} label={t('ops.pricing.tierAbove')} type="number" min={1} inputMode="numeric" />
            <Field meta={fields.long_context_input_percent} label={t('ops.pricing.tierInput')} type="number" min={1} inputMode="numeric" />
            <Field meta={fields.long_context_output_percent} label={t('ops.pricing.tierOutput')} type="number" min={1} inputMode="numeric" />
          </div>
        </details>
        <div className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
          <Field meta={fields.description} label={t('ops.pricing.description')} autoComplete="off" />
          <SubmitButton intent="set">{t('ops.pricing.submit')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}
