import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { codexConfigToml, codexKeyVariable, envLines, envSnippet, geminiEnv, geminiSettings, settingsJson, setupCommand } from './cli-setup.ts'

const url = 'https://relay.example.com'
const key = 'sk-relay-0123456789abcdefghijABCDEFGHIJ0123456789'

describe('Claude Code set-up snippets', () => {
  let home: string | undefined
  afterEach(() => {
    if (home) rmSync(home, { recursive: true, force: true })
    home = undefined
  })

  // The command really runs in sh, as a user would paste it, against a throwaway home folder.
  const runUnixSetup = () => {
    home = home ?? mkdtempSync(join(tmpdir(), 'claude-home-'))
    execFileSync('sh', ['-c', setupCommand('unix', url, key)], { env: { ...process.env, HOME: home } })
    return JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'))
  }

  it('creates ~/.claude/settings.json with the env block when there is none', () => {
    expect(runUnixSetup()).toEqual({ env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: key } })
  })

  it('merges into existing settings, keeping everything else', () => {
    home = mkdtempSync(join(tmpdir(), 'claude-home-'))
    mkdirSync(join(home, '.claude'))
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ model: 'opus', env: { ANTHROPIC_AUTH_TOKEN: 'old', DISABLE_TELEMETRY: '1' } }),
    )
    expect(runUnixSetup()).toEqual({
      model: 'opus',
      env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: key, DISABLE_TELEMETRY: '1' },
    })
  })

  it('writes the variables in each shell’s syntax', () => {
    expect(envSnippet('bash', url, key)).toBe(`export ANTHROPIC_BASE_URL="${url}"\nexport ANTHROPIC_AUTH_TOKEN="${key}"`)
    expect(envSnippet('fish', url, key)).toBe(`set -gx ANTHROPIC_BASE_URL "${url}"\nset -gx ANTHROPIC_AUTH_TOKEN "${key}"`)
    expect(envSnippet('powershell', url, key)).toBe(`$env:ANTHROPIC_BASE_URL = "${url}"\n$env:ANTHROPIC_AUTH_TOKEN = "${key}"`)
    expect(envSnippet('cmd', url, key)).toBe(`set ANTHROPIC_BASE_URL=${url}\nset ANTHROPIC_AUTH_TOKEN=${key}`)
    expect(JSON.parse(settingsJson(url, key))).toEqual({ env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: key } })
    // bash runs the export lines as written.
    const printed = execFileSync('bash', ['-c', `${envSnippet('bash', url, key)}\necho "$ANTHROPIC_BASE_URL $ANTHROPIC_AUTH_TOKEN"`])
    expect(printed.toString().trim()).toBe(`${url} ${key}`)
  })
})

describe('Codex and Gemini CLI set-up', () => {
  it('points Codex at /v1 with the Responses API and the key in the variable it names', () => {
    const toml = codexConfigToml('https://relay.example.com')
    expect(toml).toContain('model_provider = "relay"')
    expect(toml).toContain('base_url = "https://relay.example.com/v1"')
    expect(toml).toContain(`env_key = "${codexKeyVariable}"`)
    expect(toml).toContain('wire_api = "responses"')
    expect(envLines('bash', { [codexKeyVariable]: 'sk-relay-x' })).toBe('export RELAY_API_KEY="sk-relay-x"')
    expect(envLines('powershell', { [codexKeyVariable]: 'sk-relay-x' })).toBe('$env:RELAY_API_KEY = "sk-relay-x"')
  })

  it('gives Gemini CLI the address without a path and chooses API-key sign-in', () => {
    expect(geminiEnv('https://relay.example.com', 'sk-relay-x')).toEqual({ GOOGLE_GEMINI_BASE_URL: 'https://relay.example.com', GEMINI_API_KEY: 'sk-relay-x' })
    expect(JSON.stringify(geminiSettings)).toBe('{"security":{"auth":{"selectedType":"gemini-api-key"}}}')
  })
})
