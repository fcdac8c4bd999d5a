/** A Conform radio group: a fieldset with a legend, one choice per option, and its errors. */
import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { cn } from '#app/components/ui/cn.ts'
import { ErrorList } from './field.tsx'

const choiceClass =
  'flex cursor-pointer gap-3 ring-1 ring-zinc-200 ring-inset hover:bg-zinc-50 has-[:checked]:bg-indigo-50 has-[:checked]:ring-2 has-[:checked]:ring-indigo-600 dark:ring-zinc-700 dark:hover:bg-zinc-800/60 dark:has-[:checked]:bg-indigo-950/40 dark:has-[:checked]:ring-indigo-400'

export function RadioField({
  meta,
  legend,
  options,
  cards = false,
}: {
  meta: FieldMetadata<string | undefined>
  legend: string
  options: Array<{ value: string; label: string; hint?: string }>
  /** Large choices in a grid, with their hints, instead of a row of small ones. */
  cards?: boolean
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">{legend}</legend>
      <div className={cards ? 'grid gap-2 sm:grid-cols-2' : 'flex flex-wrap gap-2'}>
        {options.map((option) => (
          <label key={option.value} className={cn(choiceClass, cards ? 'rounded-xl p-3' : 'items-center rounded-lg px-3 py-1.5 text-sm')}>
            <input
              {...getInputProps(meta, { type: 'radio', value: option.value })}
              key={`${meta.key}-${option.value}`}
              className={cn('size-4 accent-indigo-600', cards && 'mt-0.5')}
            />
            <span>
              <span className={cn('block text-zinc-900 dark:text-zinc-100', cards && 'text-sm font-medium')}>{option.label}</span>
              {option.hint ? <span className="block text-xs text-zinc-500 dark:text-zinc-400">{option.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  )
}
