import { cn } from './cn.ts'

const variants = {
  primary:
    'bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-indigo-600 dark:bg-indigo-500 dark:hover:bg-indigo-400',
  secondary:
    'bg-white text-zinc-900 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:hover:bg-zinc-800',
  danger: 'bg-red-600 text-white hover:bg-red-500 focus-visible:outline-red-600',
  ghost: 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
} as const

/** `sm` for actions inside a table row or a list; `md` everywhere else. */
const sizes = {
  sm: 'gap-1.5 rounded-md px-2.5 py-1 text-xs',
  md: 'gap-2 rounded-lg px-3.5 py-2 text-sm',
} as const

export type ButtonVariant = keyof typeof variants
export type ButtonSize = keyof typeof sizes

export interface ButtonStyle {
  variant?: ButtonVariant
  size?: ButtonSize
  /** Layout classes (margins, widths); a colour or padding given here overrides the variant's. */
  className?: string
}

/** The classes of a button, for a `<Link>` or `<a>` that looks like one. */
export function buttonClass({ variant = 'primary', size = 'md', className }: ButtonStyle = {}): string {
  return cn(
    'inline-flex items-center justify-center font-semibold whitespace-nowrap shadow-sm transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60',
    sizes[size],
    variants[variant],
    className,
  )
}

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & Omit<ButtonStyle, 'className'>) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />
}
