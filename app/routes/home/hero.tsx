/** The first screen: what the relay is, the calls to action, and a terminal showing the setup. */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ArrowRight } from 'lucide-react'
import { container, useSignedIn, ctaPrimary, ctaSecondary } from './section.tsx'

/** `saving`: the computed best saving on list prices (percent), or null to state the target. */
export function Hero({ baseUrl, saving }: { baseUrl: string; saving: number | null }) {
  const { t } = useTranslation('marketing')
  const signedIn = useSignedIn()
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      {/* Backdrop: a faint grid fading out, and a soft accent glow. Pure CSS. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[linear-gradient(to_right,var(--color-zinc-200)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-zinc-200)_1px,transparent_1px)] bg-size-[44px_44px] [mask-image:radial-gradient(ellipse_70%_60%_at_50%_0%,black_30%,transparent_100%)] dark:bg-[linear-gradient(to_right,var(--color-zinc-800)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-zinc-800)_1px,transparent_1px)] dark:opacity-60"
      />
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 -z-10 h-[36rem] bg-[radial-gradient(55%_60%_at_50%_0%,rgb(99_102_241/0.16),transparent_70%)] dark:bg-[radial-gradient(55%_60%_at_50%_0%,rgb(129_140_248/0.16),transparent_70%)]"
      />
      <div className={`${container} grid grid-cols-1 items-center gap-12 pt-14 pb-16 sm:pt-20 sm:pb-20 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)] lg:gap-10 lg:pt-24 lg:pb-24`}>
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-zinc-200 bg-white/70 px-3 py-1 text-xs font-medium text-zinc-700 shadow-sm backdrop-blur sm:text-sm dark:border-zinc-800 dark:bg-zinc-900/70 dark:text-zinc-300">
            <span className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60 motion-reduce:animate-none dark:bg-emerald-500" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500 dark:bg-emerald-400" />
            </span>
            {t('hero.badge')}
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl leading-[1.1] font-semibold tracking-tight break-keep text-balance wrap-anywhere text-zinc-900 sm:text-5xl lg:text-6xl dark:text-white"
          >
            <span className="block">{t('hero.titleLine1')}</span>
            <span className="block bg-linear-to-r from-indigo-600 via-violet-600 to-fuchsia-500 bg-clip-text pb-1 text-transparent dark:from-indigo-400 dark:via-violet-400 dark:to-fuchsia-400">
              {t('hero.titleLine2')}
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-base leading-relaxed text-pretty text-zinc-600 sm:text-lg dark:text-zinc-400">
            {t('hero.subtitle')}
            <span className="mt-2 block">{saving === null ? t('hero.promiseTarget') : t('hero.promiseMeasured', { percent: saving })}</span>
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
            {signedIn ? (
              <Link to="/dashboard" className={ctaPrimary}>
                {t('hero.dashboard')}
                <ArrowRight className="size-4" />
              </Link>
            ) : (
              <>
                <Link to="/auth/register" className={ctaPrimary}>
                  {t('hero.register')}
                  <ArrowRight className="size-4" />
                </Link>
                <Link to="/auth/login" className={ctaSecondary}>
                  {t('hero.login')}
                </Link>
                <Link
                  to="/dashboard"
                  className="group inline-flex items-center justify-center gap-1 rounded-lg px-2 py-2.5 text-sm font-semibold text-zinc-700 hover:text-indigo-600 sm:text-base dark:text-zinc-300 dark:hover:text-indigo-400"
                >
                  {t('hero.dashboard')}
                  <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
                </Link>
              </>
            )}
          </div>
          <p className="mt-6 text-sm text-zinc-500 dark:text-zinc-500">{t('hero.note')}</p>
        </div>
        <Terminal baseUrl={baseUrl} />
      </div>
    </section>
  )
}

// Literal shell syntax for the terminal example (code, not prose: never translated).
const shell = {
  prompt: '$',
  export: 'export',
  tokenVar: 'ANTHROPIC_AUTH_TOKEN',
  urlVar: 'ANTHROPIC_BASE_URL',
  run: 'claude',
  ok: '✓',
  quote: '"',
  equals: '=',
}

function Terminal({ baseUrl }: { baseUrl: string }) {
  const { t } = useTranslation('marketing')
  return (
    <figure className="relative mx-auto w-full max-w-xl min-w-0 lg:max-w-none">
      <div
        aria-hidden="true"
        className="absolute -inset-4 -z-10 rounded-[2rem] bg-linear-to-tr from-indigo-500/20 via-violet-500/10 to-transparent blur-2xl dark:from-indigo-500/25 dark:via-violet-500/10"
      />
      <div className="overflow-hidden rounded-xl bg-zinc-950 shadow-2xl ring-1 shadow-zinc-900/20 ring-zinc-900/10 dark:bg-zinc-900 dark:shadow-black/40 dark:ring-white/10">
        <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3 dark:border-white/10">
          <span className="size-3 rounded-full bg-red-400/80 dark:bg-red-400/70" />
          <span className="size-3 rounded-full bg-amber-400/80 dark:bg-amber-400/70" />
          <span className="size-3 rounded-full bg-emerald-400/80 dark:bg-emerald-400/70" />
          <figcaption className="ml-2 truncate text-xs text-zinc-400 dark:text-zinc-400">{t('terminal.label')}</figcaption>
        </div>
        <pre className="overflow-x-auto px-4 py-5 font-mono text-[12px] leading-6 text-zinc-100 sm:px-5 sm:text-[13px] dark:text-zinc-100">
          <code>
            <span className="text-zinc-500 dark:text-zinc-500">{t('terminal.keyComment')}</span>
            {'\n'}
            <ShellLine>
              <span className="text-sky-300 dark:text-sky-300">{shell.export}</span> {shell.tokenVar}
              {shell.equals}
              <span className="text-amber-200 dark:text-amber-200">
                {shell.quote}
                {t('terminal.keyPlaceholder')}
                {shell.quote}
              </span>
            </ShellLine>
            {'\n\n'}
            <span className="text-zinc-500 dark:text-zinc-500">{t('terminal.urlComment')}</span>
            {'\n'}
            <ShellLine>
              <span className="text-sky-300 dark:text-sky-300">{shell.export}</span> {shell.urlVar}
              {shell.equals}
              <span className="text-amber-200 dark:text-amber-200">
                {shell.quote}
                {baseUrl}
                {shell.quote}
              </span>
            </ShellLine>
            {'\n\n'}
            <span className="text-zinc-500 dark:text-zinc-500">{t('terminal.runComment')}</span>
            {'\n'}
            <ShellLine>{shell.run}</ShellLine>
            {'\n'}
            <span className="text-emerald-400 dark:text-emerald-400">
              {shell.ok} {t('terminal.connected')}
            </span>
            <span aria-hidden="true" className="ml-1 inline-block h-4 w-2 translate-y-0.5 animate-pulse bg-zinc-300 motion-reduce:animate-none dark:bg-zinc-300" />
          </code>
        </pre>
      </div>
    </figure>
  )
}

function ShellLine({ children }: { children: React.ReactNode }) {
  return (
    <>
      <span className="text-violet-400 select-none dark:text-violet-400">{shell.prompt} </span>
      {children}
    </>
  )
}
