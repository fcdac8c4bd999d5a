/**
 * The wait after a refused code request: the action answers the relay's retry-after seconds; the
 * notice says how long, and the send-code button counts down once scripts run (without them it
 * stays a plain button, and asking too early just answers the wait again).
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Notice } from '#app/components/ui/notice.tsx'
import { SubmitButton } from './submit-button.tsx'

/** Seconds left of `wait`, counting down from each new answer (`answer` changes identity); 0 when none. */
export function useCodeWait(wait: number | undefined, answer: unknown): { left: number; counting: boolean } {
  const hydrated = useHydrated()
  const [left, setLeft] = useState(wait ?? 0)
  useEffect(() => setLeft(wait ?? 0), [wait, answer])
  useEffect(() => {
    if (left <= 0) return
    const timer = setTimeout(() => setLeft((seconds) => seconds - 1), 1000)
    return () => clearTimeout(timer)
  }, [left])
  return { left: hydrated ? left : (wait ?? 0), counting: hydrated && left > 0 }
}

export function CodeWaitNotice({ left }: { left: number }) {
  const { t } = useTranslation('auth')
  if (left <= 0) return null
  return (
    <Notice tone="warning" data-testid="code-wait">
      {t('codeWait.notice', { count: left })}
    </Notice>
  )
}

export function SendCodeButton({ counting, left, children, className }: { counting: boolean; left: number; children: React.ReactNode; className?: string }) {
  const { t } = useTranslation('auth')
  return (
    <SubmitButton intent="send-code" variant="secondary" formNoValidate disabled={counting || undefined} className={className} data-testid="send-code">
      {counting ? <span className="tabular-nums">{t('codeWait.button', { count: left })}</span> : children}
    </SubmitButton>
  )
}
