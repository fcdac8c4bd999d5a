/**
 * The Claude Code install tutorial of the dashboard (docs/product.md): install, log in, start using, for
 * macOS/Linux and Windows. The two tabs are radio buttons shown and hidden by CSS, so they
 * switch without JavaScript; once hydrated, a Windows browser starts on the Windows tab.
 */
import { useEffect, useRef } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CodeBlock } from '#app/components/ui/code-block.tsx'
import { RadioTabs } from '#app/components/ui/radio-tabs.tsx'
import { envSnippet, setupSystems, type SetupSystem } from '#app/utils/cli-setup.ts'

/** Whole class names, so Tailwind finds them: each panel shows while its radio is checked. */
const panel: Record<SetupSystem, string> = {
  unix: 'hidden space-y-5 group-has-[#cli-system-unix:checked]/os:block',
  windows: 'hidden space-y-5 group-has-[#cli-system-windows:checked]/os:block',
}

/** Where the commands are typed: the title of each code block (names, not copy). */
const shellName: Record<SetupSystem, string> = { unix: 'bash / zsh', windows: 'PowerShell' }

function commands(system: SetupSystem, relayUrl: string, keyPlaceholder: string) {
  const install = 'npm install -g @anthropic-ai/claude-code'
  const start = 'cd my-project\nclaude'
  const login = envSnippet(system === 'unix' ? 'bash' : 'powershell', relayUrl, keyPlaceholder)
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
      <RadioTabs
        name="cli-system"
        label={t('tutorial.system')}
        values={setupSystems}
        text={(system) => t(`tutorial.systems.${system}`)}
        refOf={(system) => (system === 'windows' ? windowsRadio : undefined)}
      />
      {setupSystems.map((system) => {
        const code = commands(system, relayUrl, keyPlaceholder)
        return (
          <ol key={system} data-system={system} className={panel[system]}>
            <Step number={1} title={t('tutorial.install.title')}>
              <p>{t(`tutorial.install.${system}`)}</p>
              <CodeBlock code={code.install} copyText={t('copy')} copyLabel={shellName[system]} />
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                <Trans t={t} i18nKey="tutorial.install.mirror" components={{ code: <code className="font-mono break-all" /> }} />
              </p>
            </Step>
            <Step number={2} title={t('tutorial.login.title')}>
              <p>{t(`tutorial.login.${system}`)}</p>
              <CodeBlock code={code.login} copyText={t('copy')} copyLabel={shellName[system]} />
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
              <CodeBlock code={code.start} copyText={t('copy')} copyLabel={shellName[system]} />
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
