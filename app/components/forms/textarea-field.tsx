/** A Conform textarea: the same label, hint and error pattern as `Field` (field.tsx). */
import { getTextareaProps, type FieldMetadata } from '@conform-to/react'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { ErrorList } from './field.tsx'

export function TextareaField({
  meta,
  label,
  hint,
  className,
  ...textareaProps
}: {
  meta: FieldMetadata<string | undefined>
  label: string
  hint?: React.ReactNode
} & Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'form'>) {
  const props = getTextareaProps(meta)
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      <textarea {...props} {...textareaProps} key={props.key} className={cn(inputClass, 'min-h-28')} />
      {hint ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
