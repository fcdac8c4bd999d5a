/**
 * The landing page (spec §1–2). Pure server-rendered markup: no images, no web fonts, inline SVG
 * icons only, so it is complete and fast on a slow network with JavaScript off.
 * Also rendered for every unmatched path (routes.ts, spec §2).
 */
import { useTranslation } from 'react-i18next'
import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import type { loader as publicLayoutLoader } from './layouts/public.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { apiBaseUrl } from '#server/env.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title },
  { name: 'description', content: loaderData?.description },
]

export function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  return {
    title: t('marketing:meta.title'),
    description: t('marketing:meta.description'),
    // Shown in the terminal example: the address Claude Code is pointed at.
    baseUrl: apiBaseUrl(request),
    marketing: routeNamespace(context, 'marketing'),
  }
}

export default function Home({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.marketing)
  return (
    <main>
      <Hero baseUrl={loaderData.baseUrl} />
      <Stats />
      <Audiences />
      <Trust />
      <Features />
      <Steps />
      <FinalCta />
    </main>
  )
}

// ── Layout pieces ────────────────────────────────────────────────────────────────────────────

const container = 'mx-auto max-w-6xl px-4 sm:px-6'

/** Signed-in visitors get "go to dashboard" instead of register/sign-in (the public layout knows). */
function useSignedIn(): boolean {
  return useRouteLoaderData<typeof publicLayoutLoader>('routes/layouts/public')?.signedIn ?? false
}

const ctaBase =
  'inline-flex items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 sm:text-base'
const ctaPrimary = `${ctaBase} bg-indigo-600 text-white shadow-sm shadow-indigo-600/20 hover:bg-indigo-500 focus-visible:outline-indigo-600 dark:bg-indigo-500 dark:shadow-indigo-500/20 dark:hover:bg-indigo-400`
const ctaSecondary = `${ctaBase} bg-white text-zinc-900 ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 focus-visible:outline-zinc-400 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:hover:bg-zinc-800`

function SectionHeader({ id, eyebrow, title, subtitle }: { id: string; eyebrow: string; title: string; subtitle?: string }) {
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

// ── Hero ─────────────────────────────────────────────────────────────────────────────────────

function Hero({ baseUrl }: { baseUrl: string }) {
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
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
            {signedIn ? (
              <Link to="/dashboard" className={ctaPrimary}>
                {t('hero.dashboard')}
                <Icon name="arrowRight" className="size-4" />
              </Link>
            ) : (
              <>
                <Link to="/auth/register" className={ctaPrimary}>
                  {t('hero.register')}
                  <Icon name="arrowRight" className="size-4" />
                </Link>
                <Link to="/auth/login" className={ctaSecondary}>
                  {t('hero.login')}
                </Link>
                <Link
                  to="/dashboard"
                  className="group inline-flex items-center justify-center gap-1 rounded-lg px-2 py-2.5 text-sm font-semibold text-zinc-700 hover:text-indigo-600 sm:text-base dark:text-zinc-300 dark:hover:text-indigo-400"
                >
                  {t('hero.dashboard')}
                  <Icon name="arrowRight" className="size-4 transition-transform group-hover:translate-x-0.5" />
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

// ── Stats ────────────────────────────────────────────────────────────────────────────────────

const statKeys = ['uptime', 'latency', 'savings', 'support'] as const

function Stats() {
  const { t } = useTranslation('marketing')
  return (
    <section aria-labelledby="stats-title" className={container}>
      <h2 id="stats-title" className="sr-only">
        {t('stats.heading')}
      </h2>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-2xl bg-zinc-200 ring-1 ring-zinc-200 lg:grid-cols-4 dark:bg-zinc-800 dark:ring-zinc-800">
        {statKeys.map((key) => (
          <div key={key} className="flex flex-col-reverse justify-end gap-1 bg-white px-5 py-6 sm:px-8 sm:py-8 dark:bg-zinc-900">
            <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t(`stats.${key}.label`)}</dt>
            <dd className="text-2xl font-semibold tracking-tight text-zinc-900 tabular-nums sm:text-4xl dark:text-white">
              {t(`stats.${key}.value`)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

// ── Audiences: mainland China and overseas ───────────────────────────────────────────────────

const chinaPoints = ['speed', 'price', 'payment', 'support'] as const
const overseasPoints = ['compatible', 'latency', 'savings', 'languages'] as const

function Audiences() {
  const { t } = useTranslation('marketing')
  return (
    <section aria-labelledby="audiences-title" className={`${container} py-20 sm:py-28`}>
      <SectionHeader
        id="audiences-title"
        eyebrow={t('audiences.eyebrow')}
        title={t('audiences.title')}
        subtitle={t('audiences.subtitle')}
      />
      <div className="mt-12 grid gap-6 lg:grid-cols-2">
        <AudienceCard
          icon="mapPin"
          title={t('audiences.china.title')}
          intro={t('audiences.china.intro')}
          points={chinaPoints.map((p) => t(`audiences.china.points.${p}`))}
        />
        <AudienceCard
          icon="globe"
          title={t('audiences.overseas.title')}
          intro={t('audiences.overseas.intro')}
          points={overseasPoints.map((p) => t(`audiences.overseas.points.${p}`))}
        />
      </div>
    </section>
  )
}

function AudienceCard({ icon, title, intro, points }: { icon: IconName; title: string; intro: string; points: string[] }) {
  return (
    <article className="relative overflow-hidden rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
      <div
        aria-hidden="true"
        className="absolute inset-x-0 top-0 h-px bg-linear-to-r from-transparent via-indigo-500/60 to-transparent dark:via-indigo-400/60"
      />
      <div className="flex items-center gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-400 dark:ring-indigo-500/20">
          <Icon name={icon} className="size-5" />
        </span>
        <div>
          <h3 className="text-lg font-semibold text-zinc-900 dark:text-white">{title}</h3>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{intro}</p>
        </div>
      </div>
      <ul className="mt-6 space-y-3.5">
        {points.map((point) => (
          <li key={point} className="flex gap-3 text-sm leading-relaxed text-zinc-700 sm:text-base dark:text-zinc-300">
            <Icon name="check" className="mt-1 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </article>
  )
}

// ── Trust: the three promises of spec §1 ─────────────────────────────────────────────────────

const promises = [
  { key: 'noStorage', icon: 'shieldCheck' },
  { key: 'noPrompts', icon: 'messageOff' },
  { key: 'noMonitoring', icon: 'eyeOff' },
] as const

function Trust() {
  const { t } = useTranslation('marketing')
  return (
    <section
      aria-labelledby="trust-title"
      className="border-y border-zinc-200 bg-white py-20 sm:py-28 dark:border-zinc-800 dark:bg-zinc-900/40"
    >
      <div className={container}>
        <SectionHeader id="trust-title" eyebrow={t('trust.eyebrow')} title={t('trust.title')} subtitle={t('trust.subtitle')} />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {promises.map(({ key, icon }) => (
            <li
              key={key}
              className="rounded-2xl border border-zinc-200 bg-zinc-50/60 p-6 dark:border-zinc-800 dark:bg-zinc-950/60"
            >
              <span className="flex size-10 items-center justify-center rounded-lg bg-zinc-900 text-white dark:bg-white dark:text-zinc-900">
                <Icon name={icon} className="size-5" />
              </span>
              <h3 className="mt-5 text-base font-semibold text-zinc-900 dark:text-white">{t(`trust.${key}.title`)}</h3>
              <p className="mt-2 text-sm leading-relaxed text-zinc-600 dark:text-zinc-400">{t(`trust.${key}.body`)}</p>
            </li>
          ))}
        </ul>
        <p className="mt-10 text-center">
          <Link
            to="/privacy"
            className="group inline-flex items-center gap-1 text-sm font-semibold text-indigo-600 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300"
          >
            {t('trust.link')}
            <Icon name="arrowRight" className="size-4 transition-transform group-hover:translate-x-0.5" />
          </Link>
        </p>
      </div>
    </section>
  )
}

// ── Features ─────────────────────────────────────────────────────────────────────────────────

const features = [
  { key: 'refill', icon: 'refresh' },
  { key: 'keys', icon: 'key' },
  { key: 'team', icon: 'users' },
  { key: 'device', icon: 'terminal' },
  { key: 'tickets', icon: 'message' },
  { key: 'usage', icon: 'chart' },
] as const

function Features() {
  const { t } = useTranslation('marketing')
  return (
    <section aria-labelledby="features-title" className={`${container} py-20 sm:py-28`}>
      <SectionHeader id="features-title" eyebrow={t('features.eyebrow')} title={t('features.title')} />
      <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ key, icon }) => (
          <li key={key} className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white text-indigo-600 shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-indigo-400 dark:ring-zinc-800">
              <Icon name={icon} className="size-5" />
            </span>
            <div>
              <h3 className="font-semibold text-zinc-900 dark:text-white">{t(`features.items.${key}.title`)}</h3>
              <p className="mt-1 text-sm leading-relaxed text-zinc-600 dark:text-zinc-400">{t(`features.items.${key}.body`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

// ── How it works ─────────────────────────────────────────────────────────────────────────────

const steps = ['redeem', 'key', 'connect'] as const

function Steps() {
  const { t } = useTranslation('marketing')
  return (
    <section
      aria-labelledby="steps-title"
      className="border-t border-zinc-200 py-20 sm:py-28 dark:border-zinc-800"
    >
      <div className={container}>
        <SectionHeader id="steps-title" eyebrow={t('steps.eyebrow')} title={t('steps.title')} subtitle={t('steps.subtitle')} />
        <div className="relative mt-12">
          <div
            aria-hidden="true"
            className="absolute top-5 right-[16%] left-[16%] hidden h-px bg-linear-to-r from-indigo-500/0 via-indigo-500/40 to-indigo-500/0 md:block dark:via-indigo-400/40"
          />
          <ol className="relative grid gap-10 md:grid-cols-3 md:gap-6">
          {steps.map((key, index) => (
            <li key={key} className="relative flex flex-col items-center text-center">
              <span className="relative flex size-10 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white ring-8 ring-zinc-50 dark:bg-indigo-500 dark:ring-zinc-950">
                {index + 1}
              </span>
              <h3 className="mt-5 text-base font-semibold text-balance text-zinc-900 dark:text-white">{t(`steps.${key}.title`)}</h3>
              <p className="mt-2 max-w-xs text-sm leading-relaxed text-zinc-600 dark:text-zinc-400">{t(`steps.${key}.body`)}</p>
            </li>
          ))}
          </ol>
        </div>
      </div>
    </section>
  )
}

// ── Final call to action ─────────────────────────────────────────────────────────────────────

function FinalCta() {
  const { t } = useTranslation('marketing')
  const signedIn = useSignedIn()
  const onDark = `${ctaBase} bg-white text-zinc-900 hover:bg-zinc-100 focus-visible:outline-white dark:bg-white dark:text-zinc-900 dark:hover:bg-zinc-100`
  return (
    <section aria-labelledby="cta-title" className={`${container} pb-20 sm:pb-28`}>
      <div className="relative isolate overflow-hidden rounded-3xl bg-zinc-900 px-6 py-14 text-center shadow-xl sm:px-12 sm:py-20 dark:bg-zinc-900 dark:ring-1 dark:ring-white/10">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(60%_80%_at_50%_0%,rgb(99_102_241/0.45),transparent_70%)] dark:bg-[radial-gradient(60%_80%_at_50%_0%,rgb(99_102_241/0.35),transparent_70%)]"
        />
        <h2 id="cta-title" className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight break-keep text-balance wrap-anywhere text-white sm:text-4xl dark:text-white">
          {t('cta.title')}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-base text-pretty text-zinc-300 sm:text-lg dark:text-zinc-300">
          {signedIn ? t('cta.signedInSubtitle') : t('cta.subtitle')}
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          {signedIn ? (
            <Link to="/dashboard" className={onDark}>
              {t('hero.dashboard')}
              <Icon name="arrowRight" className="size-4" />
            </Link>
          ) : (
            <>
              <Link to="/auth/register" className={onDark}>
                {t('cta.register')}
                <Icon name="arrowRight" className="size-4" />
              </Link>
              <Link
                to="/auth/login"
                className={`${ctaBase} text-white ring-1 ring-inset ring-white/25 hover:bg-white/10 focus-visible:outline-white dark:text-white dark:ring-white/25 dark:hover:bg-white/10`}
              >
                {t('cta.login')}
              </Link>
            </>
          )}
        </div>
      </div>
    </section>
  )
}

// ── Icons (inline SVG, 24×24 stroke) ─────────────────────────────────────────────────────────

const icons = {
  arrowRight: (
    <>
      <path d="M5 12h14" />
      <path d="m13 6 6 6-6 6" />
    </>
  ),
  check: <path d="M20 6 9 17l-5-5" />,
  mapPin: (
    <>
      <path d="M20 10c0 6-8 12-8 12s-8-6-8-12a8 8 0 0 1 16 0Z" />
      <circle cx="12" cy="10" r="3" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="10" />
      <path d="M2 12h20" />
      <path d="M12 2a15.3 15.3 0 0 1 4 10 15.3 15.3 0 0 1-4 10 15.3 15.3 0 0 1-4-10 15.3 15.3 0 0 1 4-10Z" />
    </>
  ),
  shieldCheck: (
    <>
      <path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z" />
      <path d="m9 12 2 2 4-4" />
    </>
  ),
  messageOff: (
    <>
      <path d="M21 15a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2Z" />
      <path d="m9 8 6 6" />
      <path d="m15 8-6 6" />
    </>
  ),
  eyeOff: (
    <>
      <path d="M9.88 9.88a3 3 0 1 0 4.24 4.24" />
      <path d="M10.73 5.08A10.4 10.4 0 0 1 12 5c7 0 10 7 10 7a13.2 13.2 0 0 1-1.67 2.68" />
      <path d="M6.61 6.61A13.5 13.5 0 0 0 2 12s3 7 10 7a9.7 9.7 0 0 0 5.39-1.61" />
      <path d="m2 2 20 20" />
    </>
  ),
  refresh: (
    <>
      <path d="M21 12a9 9 0 1 1-9-9c2.52 0 4.93 1 6.74 2.74L21 8" />
      <path d="M21 3v5h-5" />
    </>
  ),
  key: (
    <>
      <circle cx="7.5" cy="15.5" r="5.5" />
      <path d="m21 2-9.6 9.6" />
      <path d="m15.5 7.5 3 3L22 7l-3-3" />
    </>
  ),
  users: (
    <>
      <path d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2" />
      <circle cx="9" cy="7" r="4" />
      <path d="M22 21v-2a4 4 0 0 0-3-3.87" />
      <path d="M16 3.13a4 4 0 0 1 0 7.75" />
    </>
  ),
  terminal: (
    <>
      <path d="m4 17 6-6-6-6" />
      <path d="M12 19h8" />
    </>
  ),
  message: <path d="M7.9 20A9 9 0 1 0 4 16.1L2 22Z" />,
  chart: (
    <>
      <path d="M3 3v18h18" />
      <path d="m19 9-5 5-4-4-3 3" />
    </>
  ),
}

type IconName = keyof typeof icons

function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      {icons[name]}
    </svg>
  )
}
