/**
 * The set-up a user copies for each CLI, filled in with this deployment's URL and a key. Claude
 * Code: environment variables per shell, the `~/.claude/settings.json` block, and one-line
 * commands that merge that block into an existing settings file (other settings are kept; a
 * missing file or folder is created). Codex CLI: a provider block in `~/.codex/config.toml` and
 * the key in the variable it names. Gemini CLI: two variables and the `~/.gemini/settings.json`
 * line choosing API-key sign-in. The integration suites of the three CLIs configure them with
 * these functions, so what the guides show is what is tested.
 */

export const shells = ['bash', 'fish', 'powershell', 'cmd'] as const
export type Shell = (typeof shells)[number]

export const setupSystems = ['unix', 'windows'] as const
export type SetupSystem = (typeof setupSystems)[number]

/** The relay serves `/v1/messages` at the root of the deployment, where Claude Code looks. */
export function claudeEnv(baseUrl: string, key: string) {
  return { ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_AUTH_TOKEN: key }
}

export function envSnippet(shell: Shell, baseUrl: string, key: string): string {
  return envLines(shell, claudeEnv(baseUrl, key))
}

/** Lines that set `variables` in `shell`. */
export function envLines(shell: Shell, variables: Record<string, string>): string {
  const env = Object.entries(variables)
  switch (shell) {
    case 'bash':
      return env.map(([name, value]) => `export ${name}="${value}"`).join('\n')
    case 'fish':
      return env.map(([name, value]) => `set -gx ${name} "${value}"`).join('\n')
    case 'powershell':
      return env.map(([name, value]) => `$env:${name} = "${value}"`).join('\n')
    case 'cmd':
      return env.map(([name, value]) => `set ${name}=${value}`).join('\n')
  }
}

export function settingsJson(baseUrl: string, key: string): string {
  return JSON.stringify({ env: claudeEnv(baseUrl, key) }, null, 2)
}

/**
 * macOS/Linux: Node, which the npm install of Claude Code brings, merges the block in (no jq or
 * Python needed). Windows: PowerShell's own JSON, written without a BOM, which Node's JSON
 * parser would reject.
 */
export function setupCommand(system: SetupSystem, baseUrl: string, key: string): string {
  const env = JSON.stringify(claudeEnv(baseUrl, key))
  if (system === 'unix') {
    return (
      `node -e 'const fs=require("fs"),p=require("path"),f=p.join(require("os").homedir(),".claude","settings.json");` +
      `let s={};try{s=JSON.parse(fs.readFileSync(f,"utf8"))}catch{}s.env={...s.env,...${env}};` +
      `fs.mkdirSync(p.dirname(f),{recursive:true});fs.writeFileSync(f,JSON.stringify(s,null,2)+"\\n")'`
    )
  }
  const { ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: token } = claudeEnv(baseUrl, key)
  return (
    `$f="$HOME\\.claude\\settings.json"; $s=if(Test-Path $f){Get-Content $f -Raw|ConvertFrom-Json}else{[pscustomobject]@{}}; ` +
    `if(-not $s.env){$s|Add-Member -NotePropertyName env -NotePropertyValue ([pscustomobject]@{}) -Force}; ` +
    `$s.env|Add-Member -NotePropertyName ANTHROPIC_BASE_URL -NotePropertyValue '${url}' -Force; ` +
    `$s.env|Add-Member -NotePropertyName ANTHROPIC_AUTH_TOKEN -NotePropertyValue '${token}' -Force; ` +
    `New-Item -ItemType Directory -Force (Split-Path $f)|Out-Null; [IO.File]::WriteAllText($f, ($s|ConvertTo-Json -Depth 10))`
  )
}

/** The variable Codex reads the key from (its provider block's `env_key`). */
export const codexKeyVariable = 'RELAY_API_KEY'

/** Codex speaks the Responses API, which the relay serves under /v1. */
export function codexConfigToml(baseUrl: string): string {
  return `model_provider = "relay"\n\n[model_providers.relay]\nname = "Relay"\nbase_url = "${baseUrl}/v1"\nenv_key = "${codexKeyVariable}"\nwire_api = "responses"\n`
}

/** Gemini CLI calls `<base>/v1beta/…`: the base URL is the deployment's address, no path. */
export function geminiEnv(baseUrl: string, key: string) {
  return { GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_API_KEY: key }
}

/** Without this choice Gemini CLI 0.61 ignores GEMINI_API_KEY and asks to sign in with Google. */
export const geminiSettings = { security: { auth: { selectedType: 'gemini-api-key' } } }
