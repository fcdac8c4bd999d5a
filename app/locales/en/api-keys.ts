import type zh from '../zh/api-keys.ts'
import type { Messages } from '../types.ts'

export default {
  title: 'API keys',
  subtitle: 'Create keys for Claude Code and other clients. A key calls the API as you and spends your points: keep it as safe as a password.',
  create: {
    title: 'Create a key',
    name: 'Key name',
    nameHint: 'Tells your keys apart, e.g. “work laptop”; up to 64 characters',
    submit: 'Create key',
    usage: '{{count}} of {{limit}} keys used',
    full: 'You have reached the key limit. Delete a key you no longer use first.',
  },
  created: {
    title: 'Key “{{name}}” created',
    warning: 'This is the only time the full key is shown: copy it now and keep it somewhere safe. Once you leave or reload this page it cannot be shown again; a lost key can only be deleted and replaced.',
    label: 'Your new key',
    guide: 'The commands in the guide below now contain this key.',
    done: 'I have saved it, close',
  },
  list: {
    title: 'Your keys',
    caption: 'Your API keys',
    name: 'Name',
    key: 'Key',
    created: 'Created',
    lastUsed: 'Last used',
    actions: 'Actions',
    neverUsed: 'Never used',
    emptyTitle: 'No API keys yet',
    emptyBody: 'Create a key to use the service from Claude Code and other clients.',
  },
  delete: {
    button: 'Delete',
    confirm: 'Delete the key “{{name}}”? Clients using it stop working at once. This cannot be undone.',
    submit: 'Delete key',
    cancel: 'Cancel',
  },
  toast: {
    deleted: 'API key deleted',
  },
  guide: {
    title: 'Usage guide',
    subtitle: 'Point Claude Code at this service: set environment variables, or write the client’s settings file.',
    placeholder: 'Replace {{placeholder}} in the examples with your full key.',
    copy: 'Copy',
    env: {
      title: 'Environment variables',
      body: 'Run these in a terminal, then start claude in the same window.',
      shell: 'Shell',
      shells: { bash: 'bash / zsh', fish: 'fish', powershell: 'PowerShell', cmd: 'cmd' },
      persist: {
        bash: 'Add them to ~/.bashrc or ~/.zshrc so new terminals get them too.',
        fish: 'Use set -Ux instead of set -gx to keep them permanently.',
        powershell: 'To keep them: [Environment]::SetEnvironmentVariable("NAME", "value", "User"), then open a new window.',
        cmd: 'Use setx instead of set to keep them (takes effect in new windows).',
      },
    },
    auto: {
      title: 'Client auto-configuration',
      body: 'Claude Code reads the env block of ~/.claude/settings.json at start, so you need not set variables every time.',
      file: '~/.claude/settings.json',
      command: 'One-line setup',
      commandBody: 'Merges into the settings file, keeping your other settings; creates the file when there is none.',
      system: 'Operating system',
      systems: { unix: 'macOS / Linux', windows: 'Windows (PowerShell)' },
    },
  },
} satisfies Messages<typeof zh>
