/** A catalogue row's actions: edit (the page's `?edit=` form) and remove (a real form, intent `remove`). */
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { cn } from '#app/components/ui/cn.ts'

export function EditRemoveActions({ id, name, className }: { id: string; name: string; className?: string }) {
  const { t } = useTranslation('admin')
  return (
    <td className={cn('flex justify-end gap-2 md:table-cell md:py-3 md:text-right md:whitespace-nowrap', className)}>
      <Link to={`?edit=${id}`} className={buttonClass({ variant: 'ghost', size: 'sm' })} aria-label={`${t('catalog.edit')} ${name}`}>
        {t('catalog.edit')}
      </Link>
      <Form method="post" className="inline">
        <input type="hidden" name="id" value={id} />
        <SubmitButton intent="remove" variant="secondary" size="sm" aria-label={`${t('catalog.remove')} ${name}`}>
          {t('catalog.remove')}
        </SubmitButton>
      </Form>
    </td>
  )
}
