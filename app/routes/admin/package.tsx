/**
 * One package for an operator: change its names and descriptions, and its terms while no
 * subscription or redeem code refers to it (the relay holds the same rule, docs/decisions/115-operator-console.md);
 * list, unlist or archive it.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, useLocation } from 'react-router'
import type { Route } from './+types/package'
import { endpoints, packageListingBody, packageListings, type CatalogPackage } from '#relay/contract/index.ts'
import { ListingBadge } from '#app/components/admin/listing-badge.tsx'
import { NotFoundCard } from '#app/components/not-found-card.tsx'
import { PackageFields } from '#app/components/admin/package-fields.tsx'
import { FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { packageFormSchema } from '#app/schemas/admin-catalog.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { badForm, operatorOutcome } from './outcome.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const t = getI18n(context).t
  const relay = getRelay(context)
  // The default list leaves archived packages out; their page still opens.
  const lists = await Promise.all([relay.call(endpoints.admin.catalogPackages), relay.call(endpoints.admin.catalogPackages, { query: { listing: 'archived' } })])
  const pkg = lists.flatMap((list) => list.items).find((item) => item.id === params.id)
  if (!pkg) return data({ title: t('admin:catalog.packages.notFound'), pkg: null }, { status: 404 })
  return { title: `${pkg.code} · ${t('admin:catalog.packages.title')}`, pkg }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData()
  if (formData.get('intent') === 'listing') {
    const back = `/admin/packages/${params.id}`
    const listing = packageListingBody.safeParse({ listing: formData.get('listing') })
    if (!listing.success) return badForm(back)
    return operatorOutcome(back, async () => {
      const saved = await getRelay(context).call(endpoints.admin.setPackageListing, { params: { id: params.id }, body: listing.data })
      return { type: 'success', key: `admin:catalog.toast.packageListing.${saved.listing}`, values: { code: saved.code } }
    })
  }
  const submission = parseWithZod(formData, { schema: packageFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  let saved: CatalogPackage
  try {
    saved = await getRelay(context).call(endpoints.admin.updatePackage, { params: { id: params.id }, body: submission.value })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast('/admin/packages', { type: 'success', key: 'admin:catalog.toast.packageSaved', values: { code: saved.code } })
}

export default function AdminPackage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { pkg } = loaderData
  if (!pkg) return <NotFoundCard title={t('catalog.packages.notFound')} back="/admin/packages" backLabel={t('catalog.packages.back')} />
  return <EditForm pkg={pkg} lastResult={actionData?.result} />
}

function EditForm({ pkg, lastResult }: { pkg: CatalogPackage; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const inUse = pkg.subscriptions + pkg.redeem_codes > 0
  const [form, fields] = useZodForm(packageFormSchema, {
    lastResult,
    defaultValue: {
      name: pkg.name,
      description: pkg.description,
      points_limit: String(pkg.points_limit),
      hour_points: String(pkg.hour_points),
      validity_days: String(pkg.validity_days),
      price: (pkg.price / 100).toFixed(2),
    },
  })
  return (
    <div className="space-y-6">
      <PageHeader
        above={<BackLink to="/admin/packages">{t('catalog.packages.back')}</BackLink>}
        title={<span className="font-mono">{pkg.code}</span>}
        subtitle={t('catalog.packages.editSubtitle')}
        actions={
          <span className="flex gap-2">
            <Badge tone={pkg.kind === 'team' ? 'sky' : 'zinc'}>{t(`catalog.packages.kinds.${pkg.kind}`)}</Badge>
            <ListingBadge listing={pkg.listing} />
          </span>
        }
      />
      {inUse ? (
        <Notice tone="info" data-testid="terms-locked">
          {t('catalog.packages.termsLocked', { subscriptions: pkg.subscriptions, codes: pkg.redeem_codes })}
        </Notice>
      ) : null}
      <Card>
        <Form method="post" {...getFormProps(form)} className="space-y-5" data-testid="edit-package">
          <FormErrors id={form.errorId} errors={form.errors} />
          <PackageFields fields={fields} termsLocked={inUse} />
          <SubmitButton>{t('catalog.save')}</SubmitButton>
        </Form>
      </Card>
      <ListingCard pkg={pkg} />
    </div>
  )
}

/** Whether it is on offer; a plain form of its own, so it never carries the edit form's fields. */
function ListingCard({ pkg }: { pkg: CatalogPackage }) {
  const { t } = useTranslation('admin')
  // Each answer shows the listing saved, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  return (
    <Card key={page}>
      <CardTitle>{t('catalog.packages.listing')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('catalog.packages.listingHint')}</p>
      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3" data-testid="package-listing-form">
        <div className="w-full space-y-1.5 sm:w-56">
          <Label htmlFor="listing">{t('catalog.packages.listing')}</Label>
          <select id="listing" name="listing" defaultValue={pkg.listing} className={cn(inputClass, 'pr-8')}>
            {packageListings.map((listing) => (
              <option key={listing} value={listing}>
                {t(`catalog.packages.listings.${listing}`)}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton intent="listing" variant="secondary">
          {t('catalog.packages.setListing')}
        </SubmitButton>
      </Form>
    </Card>
  )
}
