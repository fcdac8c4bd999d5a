/**
 * The one form pattern (docs/architecture.md §7): Conform fields whose errors are translation keys, so the
 * same zod schema reports the same translated message on the server (JS off) and in the browser.
 */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Input, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/components/ui/cn.ts'

type InputType = 'text' | 'email' | 'password' | 'search' | 'tel' | 'url' | 'number' | 'date' | 'datetime-local'

export function ErrorList({ id, errors }: { id?: string; errors?: string[] }) {
  const { t } = useTranslation()
  if (!errors?.length) return null
  return (
    <ul id={id} className="space-y-1 text-sm text-red-600 dark:text-red-400" role="alert">
      {errors.map((error) => (
        // Errors are translation keys; a relay message without a key is shown as it came.
        <li key={error}>{t(error as 'validation.required', { defaultValue: error })}</li>
      ))}
    </ul>
  )
}

export function Field({
  meta,
  label,
  type = 'text',
  hint,
  className,
  ...inputProps
}: {
  meta: FieldMetadata<string | number | undefined>
  label: string
  type?: InputType
  hint?: React.ReactNode
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'type' | 'name' | 'form'>) {
  const props = getInputProps(meta, { type })
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      <Input {...props} {...inputProps} key={props.key} />
      {hint ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

export function FormErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 p-3 dark:border-red-900/60 dark:bg-red-950/40">
      <ErrorList id={id} errors={errors} />
    </div>
  )
}
