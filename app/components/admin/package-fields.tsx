/**
 * The fields of a package as operators type them (app/routes/admin/packages.tsx to create,
 * package.tsx to edit): its names and descriptions in each language, then its terms, which an
 * edit shows read-only once something refers to the package (docs/decisions/115-operator-console.md).
 */
import type { FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { contentLanguages, type ContentLanguage } from '#relay/contract/index.ts'
import { Field } from '#app/components/forms/field.tsx'

type TextFields = FieldMetadata<Partial<Record<ContentLanguage, string>> | undefined>

export function PackageFields({
  fields,
  termsLocked = false,
}: {
  fields: {
    name: TextFields
    description: TextFields
    points_limit: FieldMetadata<string | undefined>
    hour_points: FieldMetadata<string | undefined>
    validity_days: FieldMetadata<string | undefined>
    price: FieldMetadata<string | undefined>
  }
  termsLocked?: boolean
}) {
  const { t } = useTranslation('admin')
  const names = fields.name.getFieldset()
  const descriptions = fields.description.getFieldset()
  const number = { inputMode: 'numeric' as const, readOnly: termsLocked, className: 'w-full' }
  return (
    <>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-medium text-zinc-900 dark:text-zinc-100">{t('catalog.packages.names')}</legend>
        {contentLanguages.map((lang) => (
          <Field key={lang} meta={names[lang]} label={t(`catalog.languages.${lang}`)} maxLength={64} />
        ))}
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-medium text-zinc-900 dark:text-zinc-100">{t('catalog.packages.descriptions')}</legend>
        {contentLanguages.map((lang) => (
          <Field key={lang} meta={descriptions[lang]} label={t(`catalog.languages.${lang}`)} maxLength={500} />
        ))}
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-sm font-medium text-zinc-900 dark:text-zinc-100">{t('catalog.packages.terms')}</legend>
        <Field meta={fields.points_limit} label={t('catalog.packages.pointsLimit')} hint={t('catalog.packages.pointsLimitHint')} {...number} />
        <Field meta={fields.hour_points} label={t('catalog.packages.hourPoints')} hint={t('catalog.packages.hourPointsHint')} {...number} />
        <Field meta={fields.validity_days} label={t('catalog.packages.validityDays')} {...number} />
        <Field meta={fields.price} label={t('catalog.packages.price')} hint={t('catalog.packages.priceHint')} {...number} inputMode="decimal" />
      </fieldset>
    </>
  )
}
