/**
 * Codex CLI and Gemini CLI set-up, on the dashboard and the API keys screen: install, the
 * configuration file, the key, start — per CLI and per system (app/utils/cli-setup.ts). The tabs
 * are radio buttons shown and hidden by CSS, so they switch without JavaScript.
 */
import { useTranslation } from 'react-i18next'
import { CodeBlock } from '#app/components/ui/code-block.tsx'
import { RadioTabs } from '#app/components/ui/radio-tabs.tsx'
import { codexConfigToml, codexKeyVariable, envLines, geminiEnv, geminiSettings, setupSystems, type SetupSystem } from '#app/utils/cli-setup.ts'

const clients = ['codex', 'gemini'] as const
type Client = (typeof clients)[number]

/** Whole class names, so Tailwind finds them: each panel shows while its radio is checked. */
const clientPanel: Record<Client, string> = {
  codex: 'hidden space-y-4 group-has-[#other-cli-codex:checked]/client:block',
  gemini: 'hidden space-y-4 group-has-[#other-cli-gemini:checked]/client:block',
}
const systemPanel: Record<SetupSystem, string> = {
  unix: 'hidden group-has-[#other-cli-os-unix:checked]/os:block',
  windows: 'hidden group-has-[#other-cli-os-windows:checked]/os:block',
}
const shellOf: Record<SetupSystem, 'bash' | 'powershell'> = { unix: 'bash', windows: 'powershell' }
const shellName: Record<SetupSystem, string> = { unix: 'bash / zsh', windows: 'PowerShell' }
const configFile: Record<Client, Record<SetupSystem, string>> = {
  codex: { unix: '~/.codex/config.toml', windows: '%USERPROFILE%\\.codex\\config.toml' },
  gemini: { unix: '~/.gemini/settings.json', windows: '%USERPROFILE%\\.gemini\\settings.json' },
}

function snippets(client: Client, system: SetupSystem, baseUrl: string, key: string) {
  if (client === 'codex') {
    return { install: 'npm install -g @openai/codex', config: codexConfigToml(baseUrl), env: envLines(shellOf[system], { [codexKeyVariable]: key }), start: 'cd my-project\ncodex' }
  }
  return { install: 'npm install -g @google/gemini-cli', config: JSON.stringify(geminiSettings, null, 2), env: envLines(shellOf[system], geminiEnv(baseUrl, key)), start: 'cd my-project\ngemini' }
}

export function OtherClientsGuide({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  const { t } = useTranslation('dashboard')
  return (
    <div className="group/client group/os space-y-4">
      <div className="flex flex-wrap gap-2">
        <RadioTabs name="other-cli" label={t('clients.client')} values={clients} text={(client) => t(`clients.names.${client}`)} />
        <RadioTabs name="other-cli-os" label={t('tutorial.system')} values={setupSystems} text={(system) => t(`tutorial.systems.${system}`)} />
      </div>
      {clients.map((client) => (
        <div key={client} className={clientPanel[client]} data-client={client}>
          {setupSystems.map((system) => {
            const code = snippets(client, system, baseUrl, apiKey)
            return (
              <ol key={system} className={`${systemPanel[system]} space-y-4 text-sm text-zinc-600 dark:text-zinc-400`} data-system={system}>
                <li className="space-y-2">
                  <p>{t('clients.install')}</p>
                  <CodeBlock code={code.install} copyText={t('copy')} copyLabel={shellName[system]} />
                </li>
                <li className="space-y-2">
                  <p>{t(`clients.${client}.config`, { file: configFile[client][system] })}</p>
                  <CodeBlock code={code.config} copyText={t('copy')} copyLabel={configFile[client][system]} />
                </li>
                <li className="space-y-2">
                  <p>{t(`clients.${client}.env`)}</p>
                  <CodeBlock code={code.env} copyText={t('copy')} copyLabel={shellName[system]} />
                </li>
                <li className="space-y-2">
                  <p>{t('clients.start')}</p>
                  <CodeBlock code={code.start} copyText={t('copy')} copyLabel={shellName[system]} />
                </li>
              </ol>
            )
          })}
        </div>
      ))}
    </div>
  )
}
