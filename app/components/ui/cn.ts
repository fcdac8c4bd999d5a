import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

/**
 * Joins class names (strings, conditionals, arrays) and lets later Tailwind classes win over
 * earlier ones of the same property: `cn('px-3.5 py-2', 'px-2.5')` is `py-2 px-2.5`, so a caller's
 * override is never silently lost to CSS source order.
 */
export function cn(...classes: ClassValue[]): string {
  return twMerge(clsx(classes))
}
