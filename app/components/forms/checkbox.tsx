import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { ErrorList } from './field.tsx'

export function Checkbox({ meta, children }: { meta: FieldMetadata<boolean | undefined>; children: React.ReactNode }) {
  const props = getInputProps(meta, { type: 'checkbox' })
  return (
    <div className="space-y-1">
      <label className="flex items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
        <input
          {...props}
          key={props.key}
          className="mt-0.5 size-4 rounded border-zinc-300 text-indigo-600 focus:ring-indigo-600 dark:border-zinc-600 dark:bg-zinc-900"
        />
        <span>{children}</span>
      </label>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}
