/**
 * Public pages are complete without JavaScript (their links and forms work as they are), so they
 * download React and hydrate at the visitor's first press of a pointer or key (or first input),
 * not before: their first load stays small on slow links. Every other page hydrates as soon as its modules are in
 * (docs/decisions/030-first-paint-and-charts.md).
 */
import { defaultLanguage, isLanguage } from '#app/locales/types.ts'

// Only the page's language is downloaded: each language is its own chunk (slow networks).
const loaders = {
  zh: () => import('#app/locales/zh/index.ts'),
  en: () => import('#app/locales/en/index.ts'),
  ja: () => import('#app/locales/ja/index.ts'),
}

async function hydrate() {
  const lang = document.documentElement.lang
  const lng = isLanguage(lang) ? lang : defaultLanguage
  // Both at once: one round trip, not two.
  const [app, messages] = await Promise.all([import('#app/hydrate.tsx'), loaders[lng]()])
  await app.hydrate(lng, messages.default)
}

// Not focus: autofocus fires it. `input` catches autofill and pasting without a key press.
const interactions = ['pointerdown', 'keydown', 'touchstart', 'input'] as const

// A page showing what only scripts keep true (a code wait's countdown, app/components/forms/code-wait.tsx)
// hydrates at once: it answers a form the visitor has already sent (docs/decisions/005-forms.md).
const atOnce = document.querySelector('[data-hydrate-at-once]') !== null

if (document.documentElement.dataset.hydrate === 'on-interaction' && !atOnce) {
  const start = () => {
    for (const type of interactions) removeEventListener(type, start, true)
    void hydrate()
  }
  for (const type of interactions) addEventListener(type, start, { capture: true, passive: true })
} else {
  void hydrate()
}
