/** A Conform select: the same label, hint and error pattern as `Field` (field.tsx). */
import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { ErrorList } from './field.tsx'

export function SelectField({
  meta,
  label,
  options,
  placeholder,
  className,
}: {
  meta: FieldMetadata<string | undefined>
  label: string
  options: Array<{ value: string; label: string }>
  /** A first, empty choice, so nothing is picked silently. */
  placeholder?: string
  className?: string
}) {
  const props = getSelectProps(meta)
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      <select {...props} key={props.key} className={cn(inputClass, 'pr-8')}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
