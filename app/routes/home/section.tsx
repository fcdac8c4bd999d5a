/** What every section of the landing page shares: width, call-to-action styles, a header. */
import { useRouteLoaderData } from 'react-router'
import type { loader as publicLayoutLoader } from '../layouts/public.tsx'

export const container = 'mx-auto max-w-6xl px-4 sm:px-6'

/** Signed-in visitors get "go to dashboard" instead of register/sign-in (the public layout knows). */
export function useSignedIn(): boolean {
  return useRouteLoaderData<typeof publicLayoutLoader>('routes/layouts/public')?.signedIn ?? false
}

export const ctaBase =
  'inline-flex items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 sm:text-base'
export const ctaPrimary = `${ctaBase} bg-indigo-600 text-white shadow-sm shadow-indigo-600/20 hover:bg-indigo-500 focus-visible:outline-indigo-600 dark:bg-indigo-500 dark:shadow-indigo-500/20 dark:hover:bg-indigo-400`
export const ctaSecondary = `${ctaBase} bg-white text-zinc-900 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 focus-visible:outline-zinc-400 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:hover:bg-zinc-800`

export function SectionHeader({ id, eyebrow, title, subtitle }: { id: string; eyebrow: string; title: string; subtitle?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold text-indigo-600 dark:text-indigo-400">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-semibold tracking-tight break-keep text-balance wrap-anywhere text-zinc-900 sm:text-4xl dark:text-white">
        {title}
      </h2>
      {subtitle ? <p className="mt-4 text-base text-pretty text-zinc-600 sm:text-lg dark:text-zinc-400">{subtitle}</p> : null}
    </div>
  )
}
