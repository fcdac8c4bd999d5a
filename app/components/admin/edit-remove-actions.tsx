/**
 * A catalogue page's rows and form (the server half: `app/routes/admin/edit-remove.server.ts`):
 * each row has edit (the page's `?edit=` form) and remove (a real form, intent `remove`, asked
 * first); the
 * form under the list adds a row, or saves the one being edited.
 */
import type { ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'

export function EditRemoveActions({ id, name, className }: { id: string; name: string; className?: string }) {
  const { t } = useTranslation('admin')
  return (
    <td className={cn('flex justify-end gap-2 md:table-cell md:py-3 md:text-right md:whitespace-nowrap', className)}>
      <Link to={`?edit=${id}`} className={buttonClass({ variant: 'ghost', size: 'sm' })} aria-label={`${t('catalog.edit')} ${name}`}>
        {t('catalog.edit')}
      </Link>
      <ConfirmDisclosure label={t('catalog.remove')} name={`${t('catalog.remove')} ${name}`} cancelLabel={t('catalog.cancel')} message={t('catalog.removeConfirm', { name })}>
        <Form method="post">
          <input type="hidden" name="id" value={id} />
          <SubmitButton intent="remove" variant="danger" size="sm">
            {t('catalog.remove')}
          </SubmitButton>
        </Form>
      </ConfirmDisclosure>
    </td>
  )
}

/**
 * The add-or-edit form: editing, it posts the row's id to `?edit=<id>`, so a refused save comes
 * back to the same row; adding, it carries a form key, so a repeated post adds the row once.
 */
export function RowForm({ editingId, formKey, children, ...props }: { editingId: string | undefined; formKey: string } & ComponentProps<typeof Form>) {
  return (
    <Form method="post" action={editingId ? `?edit=${editingId}` : undefined} {...props}>
      {editingId ? <input type="hidden" name="id" value={editingId} /> : <FormKey value={formKey} />}
      {children}
    </Form>
  )
}

/** The form's buttons: save (`addLabel` for a new row) and, while editing, cancel back to `list`. */
export function SaveButtons({ editing, addLabel, list, className }: { editing: boolean; addLabel: string; list: string; className?: string }) {
  const { t } = useTranslation('admin')
  return (
    <div className={cn('flex gap-2', className)}>
      <SubmitButton intent="save">{editing ? t('catalog.save') : addLabel}</SubmitButton>
      {editing ? (
        <Link to={list} className={buttonClass({ variant: 'ghost' })}>
          {t('catalog.cancel')}
        </Link>
      ) : null}
    </div>
  )
}
