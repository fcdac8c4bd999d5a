/**
 * Packages: every package with its terms and what refers to it, and a form to create one
 * (the CLI's `package create`, through the same service function). A package opens its edit page,
 * where it is also listed, unlisted or archived; the list shows archived ones only when asked.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { Route } from './+types/packages'
import { endpoints, packageKinds, packageListings, type CatalogPackage, type ContentLanguage } from '#relay/contract/index.ts'
import { FilterForm, FilterSelect, oneOf } from '#app/components/admin/list-controls.tsx'
import { ListingBadge } from '#app/components/admin/listing-badge.tsx'
import { PackageFields } from '#app/components/admin/package-fields.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { newPackageFormSchema } from '#app/schemas/admin-catalog.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { useYuan } from '#app/utils/use-yuan.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const listing = oneOf(new URL(request.url), 'listing', packageListings)
  const { items } = await getRelay(context).call(endpoints.admin.catalogPackages, { query: { listing } })
  return { title: getI18n(context).t('admin:catalog.packages.title'), packages: items, listing, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: newPackageFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // A repeated post of the same form creates the package once.
    await getRelay(context).call(endpoints.admin.createPackage, { body: submission.value, ...formKeyOf(formData) })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf: { conflict: 'code' } })
  }
  return redirectWithToast('/admin/packages', { type: 'success', key: 'admin:catalog.toast.packageCreated', values: { code: submission.value.code } })
}

export default function AdminPackages({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('admin')
  const lang = (i18n.language.slice(0, 2) as ContentLanguage) ?? 'zh'
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('catalog.packages.subtitle')} />
      <FilterForm testId="package-filter">
        <FilterSelect
          name="listing"
          label={t('catalog.packages.listing')}
          value={loaderData.listing}
          anyLabel={t('catalog.packages.notArchived')}
          options={packageListings.map((listing) => ({ value: listing, label: t(`catalog.packages.listings.${listing}`) }))}
        />
      </FilterForm>
      <Card>
        {loaderData.packages.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('catalog.packages.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('catalog.packages.caption')}
            testId="admin-packages"
            columns={[
              { id: 'code', label: t('catalog.packages.code') },
              { id: 'name', label: t('catalog.packages.name') },
              { id: 'terms', label: t('catalog.packages.terms') },
              { id: 'price', label: t('catalog.packages.priceColumn'), align: 'end' },
              { id: 'use', label: t('catalog.packages.use') },
              { id: 'actions', label: '', align: 'end' },
            ]}
          >
            {loaderData.packages.map((pkg) => (
              <PackageRow key={pkg.id} pkg={pkg} lang={lang} />
            ))}
          </Table>
        )}
      </Card>
      <CreateCard formKey={loaderData.formKey} lastResult={actionData?.result} />
    </div>
  )
}

function PackageRow({ pkg, lang }: { pkg: CatalogPackage; lang: ContentLanguage }) {
  const { t } = useTranslation('admin')
  const format = useNumberFormat()
  const yuan = useYuan()
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="package-row" data-code={pkg.code}>
      <td className="md:table-cell md:py-3 md:pr-3">
        <span className="font-mono text-sm font-medium">{pkg.code}</span>{' '}
        <Badge tone={pkg.kind === 'team' ? 'sky' : 'zinc'}>{t(`catalog.packages.kinds.${pkg.kind}`)}</Badge> <ListingBadge listing={pkg.listing} />
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">{pkg.name[lang] ?? pkg.name.zh}</td>
      <td className="text-sm text-zinc-600 tabular-nums md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">
        {t('catalog.packages.termsSummary', { limit: format(pkg.points_limit), hour: format(pkg.hour_points), days: format(pkg.validity_days) })}
      </td>
      <td className="justify-self-end tabular-nums md:table-cell md:py-3 md:pr-3 md:text-right">{pkg.price === 0 ? t('catalog.packages.free') : yuan(pkg.price)}</td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        {t('catalog.packages.useSummary', { subscriptions: format(pkg.subscriptions), codes: format(pkg.redeem_codes) })}
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:text-right">
        <Link to={`/admin/packages/${pkg.id}`} className="text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400" aria-label={`${t('catalog.edit')} ${pkg.code}`}>
          {t('catalog.edit')}
        </Link>
      </td>
    </tr>
  )
}

function CreateCard({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(newPackageFormSchema, {
    lastResult,
    defaultValue: { kind: 'personal', hour_points: '100', validity_days: '30', price: '0' },
  })
  return (
    <Card>
      <CardTitle>{t('catalog.packages.create')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('catalog.packages.createHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5" data-testid="create-package">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.code} label={t('catalog.packages.code')} hint={t('catalog.packages.codeHint')} maxLength={32} autoCapitalize="characters" />
          <SelectField meta={fields.kind} label={t('catalog.packages.kind')} options={packageKinds.map((kind) => ({ value: kind, label: t(`catalog.packages.kinds.${kind}`) }))} />
        </div>
        <PackageFields fields={fields} />
        <SubmitButton>{t('catalog.packages.submitCreate')}</SubmitButton>
      </Form>
    </Card>
  )
}
