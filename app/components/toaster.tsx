/**
 * Toasts (docs/product.md). The server renders the flash toast so it shows without JavaScript; CSS
 * dismisses it after its duration and a label-for-checkbox closes it. Once hydrated, code can
 * add toasts of its own (copy actions) through `showToast`, rendered with the same markup.
 */
import { useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '#app/components/ui/cn.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'

export type ToastType = 'success' | 'error' | 'warning' | 'info'

export interface ToastView {
  id: string
  type: ToastType
  key: string
  values?: Record<string, string | number>
  duration?: number
}

let clientToasts: ToastView[] = []
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

export function showToast(toast: Omit<ToastView, 'id'>) {
  const duration = toast.duration ?? (toast.type === 'error' ? 5000 : 4000)
  const view = { ...toast, duration, id: `c${Date.now()}${Math.random().toString(36).slice(2)}` }
  clientToasts = [...clientToasts, view]
  emit()
  if (duration > 0) {
    setTimeout(() => {
      clientToasts = clientToasts.filter((t) => t.id !== view.id)
      emit()
    }, duration + 300)
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const tone: Record<ToastType, string> = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  error: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100',
  warning: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100',
  info: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100',
}

const icon: Record<ToastType, string> = { success: '✓', error: '!', warning: '!', info: 'i' }

function ToastItem({ toast }: { toast: ToastView }) {
  const { t } = useTranslation()
  const number = useNumberFormat()
  // Numbers read as everywhere else (12,345); `count` stays a number, as plural forms need it.
  const values = Object.fromEntries(Object.entries(toast.values ?? {}).map(([name, value]) => [name, typeof value === 'number' && name !== 'count' ? number(value) : value]))
  const checkboxId = `toast-${toast.id}`
  return (
    <>
      <input type="checkbox" id={checkboxId} className="toast-dismiss sr-only" aria-hidden="true" tabIndex={-1} />
      <div
        role={toast.type === 'error' ? 'alert' : 'status'}
        data-toast-type={toast.type}
        data-duration={toast.duration ?? 4000}
        style={{ '--toast-duration': `${toast.duration ?? 4000}ms` } as React.CSSProperties}
        className={cn(
          'toast pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg',
          tone[toast.type],
        )}
      >
        <span aria-hidden="true" className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-current/10 text-xs font-bold">
          {icon[toast.type]}
        </span>
        <p className="flex-1">{t(toast.key as 'toast.copied', { ...values, defaultValue: toast.key })}</p>
        <label htmlFor={checkboxId} className="cursor-pointer px-1 opacity-60 hover:opacity-100" title={t('toast.close')}>
          <span aria-hidden="true">×</span>
          <span className="sr-only">{t('toast.close')}</span>
        </label>
      </div>
    </>
  )
}

export function Toaster({ toast }: { toast: ToastView | null }) {
  const local = useSyncExternalStore(subscribe, () => clientToasts, () => clientToasts)
  // A new navigation brings a new server toast; client toasts from the last page can go.
  useEffect(() => {
    if (toast) {
      clientToasts = []
      emit()
    }
  }, [toast])
  const all = toast ? [toast, ...local] : local
  if (!all.length) return null
  return (
    <div className="pointer-events-none fixed inset-x-0 top-3 z-50 flex flex-col items-center gap-2 px-3 sm:items-end sm:px-6">
      {all.map((item) => (
        <ToastItem key={item.id} toast={item} />
      ))}
    </div>
  )
}
