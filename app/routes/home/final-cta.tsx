import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ArrowRight } from 'lucide-react'
import { container, useSignedIn, ctaBase } from './section.tsx'

export function FinalCta() {
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
              <ArrowRight className="size-4" />
            </Link>
          ) : (
            <>
              <Link to="/auth/register" className={onDark}>
                {t('cta.register')}
                <ArrowRight className="size-4" />
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
