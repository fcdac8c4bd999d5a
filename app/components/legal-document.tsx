/**
 * A legal document (privacy policy, terms of service) rendered from the `legal` namespace.
 * The sections come from the locale module in their written order; each section's key is its
 * anchor id, the same in every language, so `/privacy#cookies` links work across languages.
 * Server-rendered, no JavaScript needed: the contents list is a <details> on small screens.
 */
import { Check, ChevronDown } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/** The date in the locale strings (`shared.lastUpdated`), machine-readable for <time>. */
export const legalUpdatedOn = '2026-11-20'

type Doc = 'privacy' | 'terms'

type Section = {
  title: string
  body?: readonly string[]
  items?: readonly string[]
  after?: readonly string[]
}

const otherDoc = { privacy: 'terms', terms: 'privacy' } as const satisfies Record<Doc, Doc>

export function LegalDocument({ doc }: { doc: Doc }) {
  const { t } = useTranslation('legal')
  const sections: Record<string, Section> = t(`${doc}.sections`, { returnObjects: true })
  const summary: readonly string[] = t(`${doc}.summary.items`, { returnObjects: true })
  const entries = Object.entries(sections)
  const other = otherDoc[doc]

  const tocLinks = (
    <ol className="space-y-1 text-sm">
      {entries.map(([id, section], index) => (
        <li key={id}>
          <a
            href={`#${id}`}
            className="flex gap-2 rounded-md px-2 py-1.5 text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800/70 dark:hover:text-zinc-100"
          >
            <span className="w-5 shrink-0 text-right text-zinc-400 tabular-nums dark:text-zinc-500">{index + 1}</span>
            <span>{section.title}</span>
          </a>
        </li>
      ))}
    </ol>
  )

  return (
    <main id="top" className="mx-auto max-w-6xl px-4 pt-10 pb-20 sm:px-6 sm:pt-16 sm:pb-28">
      <div className="lg:flex lg:gap-12">
        {/* Contents: a sticky sidebar on large screens, a disclosure on small ones. */}
        <nav aria-label={t('shared.toc')} className="hidden w-56 shrink-0 lg:block">
          <div className="sticky top-24 max-h-[calc(100vh-7rem)] overflow-y-auto pb-4">
            <p className="px-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
              {t('shared.toc')}
            </p>
            <div className="mt-2">{tocLinks}</div>
          </div>
        </nav>

        <div className="max-w-3xl min-w-0 flex-1">
          <header className="mb-10">
            <p className="text-sm font-semibold text-indigo-600 dark:text-indigo-400">{t(`${doc}.eyebrow`)}</p>
            <h1 className="mt-2 text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
              {t(`${doc}.title`)}
            </h1>
            <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">
              <time dateTime={legalUpdatedOn}>{t('shared.lastUpdated')}</time>
            </p>
            <p className="mt-6 text-base leading-7 text-zinc-700 dark:text-zinc-300">{t(`${doc}.intro`)}</p>
          </header>

          <details className="group mb-8 rounded-xl border border-zinc-200 bg-white lg:hidden dark:border-zinc-800 dark:bg-zinc-900">
            <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 text-sm font-semibold text-zinc-900 dark:text-zinc-100 [&::-webkit-details-marker]:hidden">
              {t('shared.toc')}
              <ChevronDown className="size-4 text-zinc-500 transition-transform group-open:rotate-180 dark:text-zinc-400" />
            </summary>
            <div className="border-t border-zinc-200 px-2 py-2 dark:border-zinc-800">{tocLinks}</div>
          </details>

          <aside className="rounded-2xl border border-indigo-200/70 bg-indigo-50/60 p-5 sm:p-6 dark:border-indigo-500/20 dark:bg-indigo-500/5">
            <h2 className="text-sm font-semibold text-indigo-900 dark:text-indigo-200">{t(`${doc}.summary.title`)}</h2>
            <ul className="mt-3 space-y-2">
              {summary.map((item) => (
                <li key={item} className="flex gap-2.5 text-sm leading-6 text-indigo-950/80 dark:text-indigo-100/80">
                  <Check className="mt-0.5 size-5 shrink-0 text-indigo-600 dark:text-indigo-400" />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </aside>

          <div className="mt-4">
            {entries.map(([id, section], index) => (
              <section
                key={id}
                id={id}
                aria-labelledby={`${id}-title`}
                className="scroll-mt-20 border-b border-zinc-200 py-8 last:border-b-0 dark:border-zinc-800"
              >
                <h2 id={`${id}-title`} className="flex gap-3 text-xl font-semibold tracking-tight text-zinc-900 dark:text-white">
                  <span className="text-zinc-400 tabular-nums dark:text-zinc-500">{index + 1}</span>
                  <span>{section.title}</span>
                </h2>
                <div className="mt-4 space-y-4 text-base leading-7 text-zinc-700 dark:text-zinc-300">
                  {section.body?.map((paragraph) => <p key={paragraph}>{paragraph}</p>)}
                  {section.items ? (
                    <ul className="space-y-2.5">
                      {section.items.map((item) => (
                        <li key={item} className="relative pl-5">
                          <span
                            aria-hidden="true"
                            className="absolute top-[0.7rem] left-1 size-1.5 rounded-full bg-indigo-500 dark:bg-indigo-400"
                          />
                          {item}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {section.after?.map((paragraph) => <p key={paragraph}>{paragraph}</p>)}
                </div>
                {id === 'contact' ? (
                  <Link
                    to="/tickets/create"
                    className="mt-6 inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:bg-indigo-500 dark:hover:bg-indigo-400"
                  >
                    {t('shared.contactCta')}
                  </Link>
                ) : null}
              </section>
            ))}
          </div>

          <footer className="mt-6 space-y-4 border-t border-zinc-200 pt-6 text-sm text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
            <p>{t('shared.languageNote')}</p>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <Link
                to={`/${other}`}
                className="font-semibold text-indigo-600 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300"
              >
                {t(`${other}.title`)}
              </Link>
              <a href="#top" className="hover:text-zinc-900 dark:hover:text-zinc-100">
                {t('shared.backToTop')}
              </a>
            </div>
          </footer>
        </div>
      </div>
    </main>
  )
}
