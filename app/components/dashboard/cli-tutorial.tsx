/**
 * The Claude Code install tutorial of the dashboard (spec §2): install, log in, start using, for
 * macOS/Linux and Windows. The two tabs are radio buttons shown and hidden by CSS, so they
 * switch without JavaScript; once hydrated, a Windows browser starts on the Windows tab.
 */
import { useEffect, useRef } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CodeBlock } from '#app/components/ui/code-block.tsx'

const systems = ['unix', 'windows'] as const
type System = (typeof systems)[number]

function commands(system: System, relayUrl: string, keyPlaceholder: string) {
  const install = 'npm install -g @anthropic-ai/claude-code'
  const start = 'cd my-project\nclaude'
  const login =
    system === 'unix'
      ? `export ANTHROPIC_BASE_URL="${relayUrl}"\nexport ANTHROPIC_AUTH_TOKEN="${keyPlaceholder}"`
      : `setx ANTHROPIC_BASE_URL "${relayUrl}"\nsetx ANTHROPIC_AUTH_TOKEN "${keyPlaceholder}"`
  return { install, login, start }
}

/**
 * `keyPlaceholder` is what a person replaces with a key from the API keys screen; it comes from
 * the loader, so the contract (and zod with it) stays out of the dashboard's browser bundle.
 */
export function CliTutorial({ relayUrl, keyPlaceholder }: { relayUrl: string; keyPlaceholder: string }) {
  const { t } = useTranslation('dashboard')
  const windowsRadio = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (windowsRadio.current && /Win/i.test(navigator.userAgent)) windowsRadio.current.checked = true
  }, [])
  return (
    <div className="group/os space-y-5">
      <div role="radiogroup" aria-label={t('tutorial.system')} className="inline-flex rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
        {systems.map((system) => (
          <label
            key={system}
            className="cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-zinc-600 transition-colors has-checked:bg-white has-checked:text-zinc-900 has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-indigo-600 dark:text-zinc-400 dark:has-checked:bg-zinc-950 dark:has-checked:text-zinc-100"
          >
            <input
              ref={system === 'windows' ? windowsRadio : undefined}
              type="radio"
              name="cli-system"
              id={`cli-system-${system}`}
              value={system}
              defaultChecked={system === 'unix'}
              className="sr-only"
            />
            {t(`tutorial.systems.${system}`)}
          </label>
        ))}
      </div>
      {systems.map((system) => {
        const code = commands(system, relayUrl, keyPlaceholder)
        return (
          <ol
            key={system}
            data-system={system}
            className={
              system === 'unix'
                ? 'hidden space-y-5 group-has-[#cli-system-unix:checked]/os:block'
                : 'hidden space-y-5 group-has-[#cli-system-windows:checked]/os:block'
            }
          >
            <Step number={1} title={t('tutorial.install.title')}>
              <p>{t(`tutorial.install.${system}`)}</p>
              <CodeBlock code={code.install} copyText={t('copy')} copyLabel={t('tutorial.install.title')} />
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                <Trans t={t} i18nKey="tutorial.install.mirror" components={{ code: <code className="font-mono" /> }} />
              </p>
            </Step>
            <Step number={2} title={t('tutorial.login.title')}>
              <p>{t(`tutorial.login.${system}`)}</p>
              <CodeBlock code={code.login} copyText={t('copy')} copyLabel={t('tutorial.login.title')} />
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                <Trans
                  t={t}
                  i18nKey="tutorial.login.key"
                  components={{
                    keys: <Link to="/api-keys" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400" />,
                  }}
                />
              </p>
            </Step>
            <Step number={3} title={t('tutorial.start.title')}>
              <p>{t('tutorial.start.body')}</p>
              <CodeBlock code={code.start} copyText={t('copy')} copyLabel={t('tutorial.start.title')} />
            </Step>
          </ol>
        )
      })}
    </div>
  )
}

function Step({ number, title, children }: { number: number; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-3 sm:gap-4">
      <span
        aria-hidden="true"
        className="grid size-7 shrink-0 place-items-center rounded-full bg-indigo-50 text-sm font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
      >
        {number}
      </span>
      <div className="min-w-0 flex-1 space-y-2 text-sm text-zinc-600 dark:text-zinc-400">
        <h3 className="font-semibold text-zinc-900 dark:text-zinc-100">{title}</h3>
        {children}
      </div>
    </li>
  )
}
