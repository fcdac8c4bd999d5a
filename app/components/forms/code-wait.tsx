/**
 * The wait before another code may be asked for: after a code is sent, the relay's `resend_after`;
 * after a refused request, its retry-after seconds. The send-code button counts it down once
 * scripts run (without them it stays a plain button, and asking too early answers the wait); a
 * refusal's notice also says how long.
 *
 * The seconds run from when the answer arrived, on the page's own clock, not from when scripts
 * started or a timer last fired: a page answered before it hydrated (the form was sent the plain
 * way) hydrates at once for this count (`data-hydrate-at-once` on the counting button,
 * app/entry.client.tsx), and timers fire late under load and in background tabs
 * (docs/decisions/005-forms.md).
 */
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Notice } from '#app/components/ui/notice.tsx'
import { SubmitButton } from './submit-button.tsx'

/** When the document's response began, on the clock of `performance.now()`. */
function documentAnsweredAt(): number {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
  return navigation?.responseStart ?? 0
}

/** Seconds left of `wait`, counting down from each new answer (`answer` changes identity); 0 when none. */
export function useCodeWait(wait: number | undefined, answer: unknown): { left: number; counting: boolean } {
  const hydrated = useHydrated()
  // The answer the page hydrated with came in the document; any later one arrives as it renders.
  const [documentAnswer] = useState(() => (hydrated ? undefined : answer))
  const [counted, setCounted] = useState<{ answer: unknown; until: number }>({ answer: undefined, until: 0 })
  const [now, setNow] = useState(0)
  if (hydrated && counted.answer !== answer) {
    const answeredAt = answer !== undefined && answer === documentAnswer ? documentAnsweredAt() : performance.now()
    setCounted({ answer, until: wait ? answeredAt + wait * 1000 : 0 })
    setNow(performance.now())
  }
  useEffect(() => {
    if (now >= counted.until) return
    // Woken when the shown second changes; a late timer only shows the right number late.
    const timer = setTimeout(() => setNow(performance.now()), ((counted.until - now) % 1000) + 1)
    return () => clearTimeout(timer)
  }, [now, counted.until])
  const left = Math.max(0, Math.ceil((counted.until - now) / 1000))
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
    <SubmitButton
      intent="send-code"
      variant="secondary"
      formNoValidate
      disabled={counting || undefined}
      className={className}
      data-testid="send-code"
      // The page answering with a wait counts it only with scripts: it loads them at once.
      data-hydrate-at-once={left > 0 ? '' : undefined}
    >
      {counting ? <span className="tabular-nums">{t('codeWait.button', { count: left })}</span> : children}
    </SubmitButton>
  )
}
