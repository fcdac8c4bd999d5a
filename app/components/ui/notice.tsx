import { useTranslation } from 'react-i18next'
import { cn } from './cn.ts'

const tones = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-200',
  info: 'border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-200',
  warning: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200',
  error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200',
} as const

export function Notice({
  tone = 'info',
  className,
  ...props
}: React.HTMLAttributes<HTMLDivElement> & { tone?: keyof typeof tones }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-lg border px-3 py-2.5 text-sm', tones[tone], className)}
      {...props}
    />
  )
}

/** A success notice an action returned as a translation key (e.g. "code sent"). */
export function ActionNotice({ message }: { message?: string }) {
  const { t } = useTranslation()
  if (!message) return null
  return <Notice tone="success">{t(message as 'toast.codeSent', { defaultValue: message })}</Notice>
}
