/**
 * docs/product.md, Constants: after hydration an open page re-checks the session every 600 s and goes to login once
 * it has ended. Without JavaScript the next request does the same through the navigation guard.
 */
import { useEffect } from 'react'
import { useLocation, useNavigate } from 'react-router'

export const sessionCheckIntervalMs = 600_000

export function SessionWatcher() {
  const navigate = useNavigate()
  const location = useLocation()
  useEffect(() => {
    const timer = setInterval(async () => {
      try {
        const response = await fetch('/resources/session', { headers: { accept: 'application/json' } })
        if (!response.ok) return // relay or network trouble keeps the session (docs/product.md)
        const { active } = (await response.json()) as { active: boolean }
        if (!active) {
          const back = `${location.pathname}${location.search}`
          void navigate(`/auth/login?redirectTo=${encodeURIComponent(back)}&reason=expired`)
        }
      } catch {
        // Offline: try again at the next tick.
      }
    }, sessionCheckIntervalMs)
    return () => clearInterval(timer)
  }, [navigate, location.pathname, location.search])
  return null
}
