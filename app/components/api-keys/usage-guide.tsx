/**
 * The usage guide of the API keys screen (docs/product.md): Claude Code's environment variables
 * per shell and client auto-configuration, then Codex CLI's and Gemini CLI's set-up
 * (other-clients.tsx), filled in with this deployment's URL and, right after a create, the new
 * key. Shell and system tabs are radio buttons shown and hidden by CSS, so they switch without
 * JavaScript.
 */
import { useTranslation } from 'react-i18next'
import { OtherClientsGuide } from '#app/components/cli-guides/other-clients.tsx'
import { CodeBlock } from '#app/components/ui/code-block.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { RadioTabs } from '#app/components/ui/radio-tabs.tsx'
import {
  envSnippet,
  settingsJson,
  setupCommand,
  setupSystems,
  shells,
  type SetupSystem,
  type Shell,
} from '#app/utils/cli-setup.ts'

/** Whole class names, so Tailwind finds them: each panel shows while its radio is checked. */
const shellPanel: Record<Shell, string> = {
  bash: 'hidden group-has-[#shell-bash:checked]/shell:block',
  fish: 'hidden group-has-[#shell-fish:checked]/shell:block',
  powershell: 'hidden group-has-[#shell-powershell:checked]/shell:block',
  cmd: 'hidden group-has-[#shell-cmd:checked]/shell:block',
}
const systemPanel: Record<SetupSystem, string> = {
  unix: 'hidden group-has-[#setup-unix:checked]/system:block',
  windows: 'hidden group-has-[#setup-windows:checked]/system:block',
}

export function UsageGuide({ baseUrl, apiKey, placeholder }: { baseUrl: string; apiKey: string; placeholder: boolean }) {
  const { t } = useTranslation('apiKeys')
  const { t: tDashboard } = useTranslation('dashboard')
  return (
    <section aria-labelledby="guide-title" className="space-y-4">
      <div>
        <h2 id="guide-title" className="text-lg font-semibold tracking-tight">
          {t('guide.title')}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('guide.subtitle')}</p>
        {placeholder ? (
          <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{t('guide.placeholder', { placeholder: apiKey })}</p>
        ) : null}
      </div>
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <Card aria-labelledby="guide-env-title" className="group/shell min-w-0 space-y-4">
          <div>
            <CardTitle id="guide-env-title">{t('guide.env.title')}</CardTitle>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('guide.env.body')}</p>
          </div>
          <RadioTabs name="shell" label={t('guide.env.shell')} values={shells} text={(shell) => t(`guide.env.shells.${shell}`)} />
          {shells.map((shell) => (
            <div key={shell} className={shellPanel[shell]} data-shell={shell}>
              <CodeBlock code={envSnippet(shell, baseUrl, apiKey)} copyText={t('guide.copy')} copyLabel={t(`guide.env.shells.${shell}`)} />
              <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">{t(`guide.env.persist.${shell}`)}</p>
            </div>
          ))}
        </Card>
        <Card aria-labelledby="guide-auto-title" className="group/system min-w-0 space-y-4">
          <div>
            <CardTitle id="guide-auto-title">{t('guide.auto.title')}</CardTitle>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('guide.auto.body')}</p>
          </div>
          {/* The block's title bar names the file. */}
          <CodeBlock code={settingsJson(baseUrl, apiKey)} copyText={t('guide.copy')} copyLabel={t('guide.auto.file')} />
          <div className="space-y-3">
            <div>
              <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t('guide.auto.command')}</h3>
              <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{t('guide.auto.commandBody')}</p>
            </div>
            <RadioTabs name="setup" label={t('guide.auto.system')} values={setupSystems} text={(system) => t(`guide.auto.systems.${system}`)} />
            {setupSystems.map((system) => (
              <div key={system} className={systemPanel[system]} data-system={system}>
                <CodeBlock code={setupCommand(system, baseUrl, apiKey)} copyText={t('guide.copy')} copyLabel={t(`guide.auto.systems.${system}`)} />
              </div>
            ))}
          </div>
        </Card>
      </div>
      <Card aria-labelledby="guide-other-title" className="min-w-0 space-y-4">
        <div>
          <CardTitle id="guide-other-title">{tDashboard('clients.title')}</CardTitle>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{tDashboard('clients.subtitle')}</p>
        </div>
        <OtherClientsGuide baseUrl={baseUrl} apiKey={apiKey} />
      </Card>
    </section>
  )
}
