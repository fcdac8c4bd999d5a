/**
 * Redeem codes: generate a batch of up to 10,000 for a personal package or a top-up (shown once, on
 * the answer to the form, and downloadable as CSV from there), list codes with their state, revoke
 * unused ones (one, or those ticked), export rows. The list never shows codes: they are stored hashed.
 */
import { getFormProps, getSelectProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useLocation } from 'react-router'
import type { Route } from './+types/codes'
import { endpoints, idSchema, redeemBatchMax, redeemCodeStates, type AdminRedeemCode, type GeneratedCodes } from '#relay/contract/index.ts'
import { BulkForm, RowCheck } from '#app/components/admin/bulk-actions.tsx'
import { FilterForm, FilterSelect, ListPager, oneOf } from '#app/components/admin/list-controls.tsx'
import { Field, FormErrors, ErrorList } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { generateCodesSchema } from '#app/schemas/admin.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { badForm, bulkOutcome, operatorOutcome } from './outcome.server.ts'

const bulkFormId = 'bulk-codes'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const batch = url.searchParams.get('batch') ?? undefined
  const filter = { state: oneOf(url, 'state', redeemCodeStates), batch: batch && idSchema.safeParse(batch).success ? batch : undefined }
  const relay = getRelay(context)
  const [codes, packages] = await Promise.all([
    relay.call(endpoints.admin.redeemCodes, { query: { ...filter, page: pageParam(request), pageSize: 25 } }),
    relay.call(endpoints.admin.packages),
  ])
  return { title: getI18n(context).t('admin:codes.title'), codes, packages: packages.items, filter, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  const relay = getRelay(context)
  const formData = await request.formData()
  if (formData.get('intent') === 'revoke-chosen') {
    return bulkOutcome(back, formData, async (ids) => {
      const { changed } = await relay.call(endpoints.admin.revokeCodes, { body: { ids } })
      return { type: 'success', key: 'admin:bulk.codesRevoked', values: { count: changed } }
    })
  }
  if (formData.get('intent') === 'revoke') {
    const id = idSchema.safeParse(formData.get('id'))
    if (!id.success) return badForm(back)
    return operatorOutcome(back, async () => {
      await relay.call(endpoints.admin.revokeCode, { params: { id: id.data } })
      return { type: 'success', key: 'admin:toast.codeRevoked' }
    })
  }
  const submission = parseWithZod(formData, { schema: generateCodesSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // The codes are answered here, once; a repeated post of the same form gets the same batch back.
    const key = formKeyOf(formData)
    const generated = await relay.call(endpoints.admin.generateCodes, { body: submission.value, ...key })
    // The download posts the same form (values and key) again, and is answered with this batch.
    return data({ result: submission.reply({ resetForm: true }), generated, asked: { ...submission.value, formKey: key.idempotencyKey } })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf: { not_found: 'package_code' } })
  }
}

export default function AdminCodes({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { codes, filter } = loaderData
  // The generic action type loses the success branch's shape; it is the generate call's reply.
  const generated = actionData && 'generated' in actionData ? (actionData.generated as GeneratedCodes) : undefined
  const asked = actionData && 'asked' in actionData ? (actionData.asked as { package_code: string; count: number; expires_days?: number; formKey?: string }) : undefined
  // Each answer starts with nothing ticked, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('codes.subtitle')} />
      <GenerateCard packages={loaderData.packages} formKey={loaderData.formKey} lastResult={actionData?.result} />
      {generated ? (
        <Card className="border-emerald-200 dark:border-emerald-900/60" data-testid="generated-codes">
          <Notice tone="success">{t('codes.generated', { count: generated.codes.length })}</Notice>
          <textarea
            readOnly
            aria-label={t('codes.title')}
            rows={Math.min(10, generated.codes.length)}
            className={cn(inputClass, 'mt-4 font-mono')}
            value={generated.codes.join('\n')}
          />
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
            <Link to={`/admin/codes?batch=${generated.batch_id}`} className="text-sm font-medium text-indigo-600 dark:text-indigo-400">
              {t('codes.batch')} {generated.batch_id} →
            </Link>
            {asked?.formKey ? (
              <Form method="post" action="/admin/codes/batch" reloadDocument data-testid="download-batch">
                <FormKey value={asked.formKey} />
                <input type="hidden" name="package_code" value={asked.package_code} />
                <input type="hidden" name="count" value={asked.count} />
                {asked.expires_days === undefined ? null : <input type="hidden" name="expires_days" value={asked.expires_days} />}
                <Button type="submit" variant="secondary" size="sm">
                  {t('codes.downloadCsv')}
                </Button>
              </Form>
            ) : null}
          </div>
        </Card>
      ) : null}
      <FilterForm testId="code-filter">
        <FilterSelect name="state" label={t('codes.state')} value={filter.state} options={redeemCodeStates.map((s) => ({ value: s, label: t(`codes.states.${s}`) }))} />
        {filter.batch ? <input type="hidden" name="batch" value={filter.batch} /> : null}
      </FilterForm>
      <Card key={page}>
        {codes.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('codes.empty')}</p>
        ) : (
          <div className="space-y-3">
            <BulkForm id={bulkFormId} exportTo="/admin/codes/export">
              <ConfirmDisclosure label={t('bulk.revoke')} cancelLabel={t('catalog.cancel')} message={t('bulk.revokeCodesConfirm')} data-testid="bulk-revoke">
                <SubmitButton intent="revoke-chosen" variant="danger" size="sm">
                  {t('bulk.revokeCodesSubmit')}
                </SubmitButton>
              </ConfirmDisclosure>
            </BulkForm>
            <Table
              phone="stack"
              caption={t('codes.caption')}
              testId="admin-codes"
              columns={[
                { id: 'choose', label: <span className="sr-only">{t('bulk.choose')}</span> },
                { id: 'id', label: t('codes.id') },
                { id: 'package', label: t('codes.package') },
                { id: 'state', label: t('codes.state') },
                { id: 'created', label: t('codes.created') },
                { id: 'expires', label: t('codes.expires') },
                { id: 'used', label: t('codes.usedBy') },
                { id: 'actions', label: '', align: 'end' },
              ]}
            >
              {codes.items.map((code) => (
                <CodeRow key={code.id} code={code} />
              ))}
            </Table>
          </div>
        )}
        <ListPager page={codes.page} pageSize={codes.pageSize} total={codes.total} />
      </Card>
    </div>
  )
}

function GenerateCard({ packages, formKey, lastResult }: { packages: Array<{ code: string; name: string }>; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(generateCodesSchema, { lastResult, defaultValue: { package_code: packages[0]?.code, count: '10' } })
  return (
    <Card>
      <CardTitle>{t('codes.generate')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-start gap-3" data-testid="generate-codes">
        <FormKey value={formKey} />
        <div className="w-full">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <div className="w-full space-y-1.5 sm:w-60">
          <Label htmlFor={fields.package_code.id}>{t('codes.package')}</Label>
          <select {...getSelectProps(fields.package_code)} key={fields.package_code.key} className={cn(inputClass, 'pr-8')}>
            {packages.map((pkg) => (
              <option key={pkg.code} value={pkg.code}>
                {pkg.name} ({pkg.code})
              </option>
            ))}
          </select>
          <ErrorList id={fields.package_code.errorId} errors={fields.package_code.errors} />
        </div>
        <Field meta={fields.count} label={t('codes.count')} hint={t('codes.countHint')} type="number" min={1} max={redeemBatchMax} inputMode="numeric" className="w-full sm:w-32" />
        <Field meta={fields.expires_days} label={t('codes.expiresDays')} hint={t('codes.expiresHint')} type="number" min={1} inputMode="numeric" className="w-full sm:w-48" />
        <div className="w-full sm:w-auto sm:pt-6">
          <SubmitButton intent="generate">{t('codes.submit')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}

const stateTones = { unused: 'green', used: 'indigo', expired: 'zinc', revoked: 'red' } satisfies Record<AdminRedeemCode['state'], BadgeTone>

function CodeRow({ code }: { code: AdminRedeemCode }) {
  const { t } = useTranslation('admin')
  return (
    <tr className="grid grid-cols-[auto_1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="code-row" data-state={code.state}>
      <td className="row-span-4 pt-0.5 md:table-cell md:w-8 md:py-3 md:pr-3">
        <RowCheck form={bulkFormId} value={code.id} label={t('bulk.chooseRow', { name: code.id })} />
      </td>
      <td className="font-mono text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">{code.id}</td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">{code.package_name}</td>
      <td className="md:table-cell md:py-3 md:pr-3">
        <Badge tone={stateTones[code.state]}>{t(`codes.states.${code.state}`)}</Badge>
      </td>
      <td className="justify-self-end text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        <LocalTime ms={code.create_timestamp} />
      </td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        {/* Phones show no column heads: say which date this is. */}
        <span className="md:hidden">{t('codes.expires')}: </span>
        {code.expires_timestamp === null ? t('codes.never') : <LocalTime ms={code.expires_timestamp} />}
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        {code.used_by ? (
          <Link to={`/admin/users/${code.used_by}`} className="text-indigo-600 dark:text-indigo-400">
            {code.used_by_name}
          </Link>
        ) : null}
      </td>
      <td className="col-span-2 justify-self-end md:table-cell md:py-3 md:text-right">
        {code.state === 'unused' ? (
          <ConfirmDisclosure label={t('codes.revoke')} name={`${t('codes.revoke')} ${code.id}`} cancelLabel={t('catalog.cancel')} message={t('codes.revokeConfirm')}>
            <Form method="post">
              <input type="hidden" name="id" value={code.id} />
              <SubmitButton intent="revoke" variant="danger" size="sm">
                {t('codes.revoke')}
              </SubmitButton>
            </Form>
          </ConfirmDisclosure>
        ) : null}
      </td>
    </tr>
  )
}
