/**
 * The frame of a call log's filters: a GET form (works without JavaScript; the filters live in the
 * URL, so a filtered view can be bookmarked), its errors, the fields in a grid, a hint, "clear"
 * and "apply". The page brings the Conform form and its fields.
 */
import { getFormProps, type FormMetadata } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'

export function CallFilters({
  form,
  title,
  hint,
  clear,
  apply,
  testId,
  className,
  children,
}: {
  form: FormMetadata<Record<string, unknown>, string[]>
  title: string
  hint: string
  /** The log with no filters, and its label. */
  clear: { to: string; label: string }
  apply: string
  testId: string
  /** The grid's columns. */
  className: string
  children: React.ReactNode
}) {
  return (
    <Card aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`} className="sr-only">
        {title}
      </h2>
      <Form method="get" {...getFormProps(form)} className="space-y-4" data-testid={testId}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className={cn('grid gap-4', className)}>{children}</div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p>
          <div className="flex gap-2">
            <Link to={clear.to} className={buttonClass({ variant: 'ghost' })}>
              {clear.label}
            </Link>
            <SubmitButton>{apply}</SubmitButton>
          </div>
        </div>
      </Form>
    </Card>
  )
}
