/**
 * Bulk actions on a console list (docs/console.md): one form whose rows' check boxes
 * (`name="id"`) join it through their `form` attribute, so a row may still hold forms of its own.
 * Each action is a submit button (`intent`), a destructive one inside a ConfirmDisclosure; an
 * export is a GET of the list's CSV route. All of it works without JavaScript.
 */
import { useTranslation } from 'react-i18next'
import { Form, useLocation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

export function BulkForm({ id, exportTo, children }: { id: string; /** The CSV route its Export button reads. */ exportTo?: string; children: React.ReactNode }) {
  const { t } = useTranslation('admin')
  const { search } = useLocation()
  return (
    // A form that downloads a file is submitted by the browser itself: a file is no page to navigate to.
    <Form id={id} method="post" reloadDocument={exportTo !== undefined} className="flex flex-wrap items-center justify-between gap-2" data-testid={id}>
      {/* The list's filter goes along, so an export with nothing ticked takes the rows shown. */}
      {[...new URLSearchParams(search)].map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <p className="text-sm text-zinc-500 dark:text-zinc-400">{exportTo ? t('bulk.hintExport') : t('bulk.hint')}</p>
      <div className="flex flex-wrap items-start justify-end gap-2">
        {children}
        {exportTo ? (
          <Button type="submit" variant="secondary" size="sm" formMethod="get" formAction={exportTo} formNoValidate>
            {t('bulk.export')}
          </Button>
        ) : null}
      </div>
    </Form>
  )
}

/** A row's check box in the list's bulk form. */
export function RowCheck({ form, value, label }: { form: string; value: string; label: string }) {
  return (
    <input
      type="checkbox"
      name="id"
      value={value}
      form={form}
      aria-label={label}
      className="size-4 shrink-0 rounded border-zinc-300 text-indigo-600 dark:border-zinc-600 dark:bg-zinc-800"
    />
  )
}
