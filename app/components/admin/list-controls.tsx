/**
 * The console's list controls: a GET filter form (works without JavaScript; the URL is the
 * filter, so a filtered list can be bookmarked and paged) and the pager under a list.
 */
import { useTranslation } from 'react-i18next'
import { Form, Link, useLocation } from 'react-router'
import { Button, buttonClass } from '#app/components/ui/button.tsx'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Pagination } from '#app/components/ui/pagination.tsx'

export function FilterForm({ children, testId, submitLabel }: { children: React.ReactNode; testId?: string; submitLabel?: string }) {
  const { t } = useTranslation('admin')
  const { pathname } = useLocation()
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" data-testid={testId}>
      {children}
      <div className="flex gap-2">
        <Button type="submit" variant="primary">
          {submitLabel ?? t('filter.apply')}
        </Button>
        <Link to={pathname} className={buttonClass({ variant: 'ghost' })}>
          {t('filter.clear')}
        </Link>
      </div>
    </Form>
  )
}

export function FilterSelect({
  name,
  label,
  value,
  options,
  anyLabel,
}: {
  name: string
  label: string
  value: string | undefined
  options: Array<{ value: string; label: string }>
  /** What the list shows with no choice, when that is not everything. */
  anyLabel?: string
}) {
  const { t } = useTranslation('admin')
  return (
    <div className="w-full space-y-1.5 sm:w-40">
      <Label htmlFor={`filter-${name}`}>{label}</Label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} className={cn(inputClass, 'pr-8')}>
        <option value="">{anyLabel ?? t('filter.any')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

export function FilterInput({ name, label, value, type = 'text', placeholder }: { name: string; label: string; value: string | undefined; type?: 'text' | 'date' | 'month'; placeholder?: string }) {
  return (
    <div className="w-full space-y-1.5 sm:w-48">
      <Label htmlFor={`filter-${name}`}>{label}</Label>
      <input id={`filter-${name}`} name={name} type={type} defaultValue={value ?? ''} placeholder={placeholder} className={inputClass} />
    </div>
  )
}

export function ListPager({ page, pageSize, total }: { page: number; pageSize: number; total: number }) {
  const { t } = useTranslation('admin')
  if (total <= pageSize) return null
  return (
    <div className="mt-4 border-t border-zinc-100 pt-4 dark:border-zinc-800">
      <Pagination
        page={page}
        pageSize={pageSize}
        total={total}
        labels={{ nav: t('pager.nav'), previous: t('pager.previous'), next: t('pager.next'), summary: (pages) => t('pager.summary', { page, pages, total }) }}
      />
    </div>
  )
}

/** A search parameter that must be one of `values`, else undefined. */
export function oneOf<T extends string>(url: URL, name: string, values: readonly T[]): T | undefined {
  const value = url.searchParams.get(name)
  return (values as readonly (string | null)[]).includes(value) ? (value as T) : undefined
}
