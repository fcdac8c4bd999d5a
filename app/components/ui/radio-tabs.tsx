/**
 * Tabs that switch without JavaScript: radio inputs inside labels. The panels are shown by CSS
 * on an ancestor with a named group, e.g. `hidden group-has-[#os-unix:checked]/os:block` (radio
 * ids are `<name>-<value>`; class names must be written out whole so Tailwind finds them).
 */
import type { Ref } from 'react'

export function RadioTabs<V extends string>({
  name,
  label,
  values,
  text,
  refOf,
}: {
  name: string
  label: string
  values: readonly V[]
  text: (value: V) => string
  /** A ref to one value's radio, to pick it once hydrated. */
  refOf?: (value: V) => Ref<HTMLInputElement> | undefined
}) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex max-w-full flex-wrap rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
      {values.map((value, index) => (
        <label
          key={value}
          className="cursor-pointer rounded-md px-2.5 py-1.5 text-sm font-medium text-zinc-600 transition-colors has-checked:bg-white has-checked:text-zinc-900 has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-indigo-600 sm:px-3 dark:text-zinc-400 dark:has-checked:bg-zinc-950 dark:has-checked:text-zinc-100"
        >
          <input
            ref={refOf?.(value)}
            type="radio"
            name={name}
            id={`${name}-${value}`}
            value={value}
            defaultChecked={index === 0}
            className="sr-only"
          />
          {text(value)}
        </label>
      ))}
    </div>
  )
}
