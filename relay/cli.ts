/**
 * The operator CLI: `npm run admin -- <command> [options]`, `npm run admin -- --help`.
 * Each area lists its commands (relay/<area>/cli.ts) in `commands` below.
 */
import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { webhookCommands } from './alerts/cli.ts'
import { announcementCommands } from './announcements/cli.ts'
import { runCli, type CliIo, type Command } from './cli-registry.ts'
import { ConfigError, loadRelayConfig } from './config.ts'
import { createLogger } from './logger.ts'
import { clientCommands } from './oauth/cli.ts'
import { resourceCommands } from './resources/cli.ts'
import { pointsCommands } from './points/cli.ts'
import { referralCommands } from './referral/cli.ts'
import { providerCommands } from './proxy/cli.ts'
import { incidentCommands } from './public-stats/cli.ts'
import { openRuntime } from './runtime.ts'
import { createServices } from './create-services.ts'
import { subscriptionCommands } from './subscriptions/cli.ts'
import { teamCommands } from './teams/cli.ts'
import { ticketCommands } from './tickets/cli.ts'
import { userCommands } from './users/cli.ts'

export const commands: readonly Command[] = [...userCommands, ...clientCommands, ...ticketCommands, ...resourceCommands, ...subscriptionCommands, ...teamCommands, ...pointsCommands, ...providerCommands, ...referralCommands, ...incidentCommands, ...announcementCommands, ...webhookCommands]

/** The real process: configuration from the environment, logs to stderr so stdout stays the result. */
export function processIo(env: Record<string, string | undefined> = process.env): CliIo {
  return {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    async openServices() {
      const config = loadRelayConfig(env, { warn: (message) => process.stderr.write(`${message}\n`) })
      const runtime = await openRuntime(config, { logger: createLogger(config.logLevel, (line) => process.stderr.write(`${line}\n`)) })
      return { services: createServices(runtime.deps), close: () => runtime.close() }
    },
    readSecret: (prompt, options) => (process.stdin.isTTY && !options?.fromStdin ? promptWithoutEcho(prompt) : firstLineOfStdin()),
  }
}

/** Asks on stderr (stdout stays the result); what is typed goes to a muted output, so the terminal shows nothing. */
async function promptWithoutEcho(prompt: string): Promise<string> {
  process.stderr.write(prompt)
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() })
  const reader = createInterface({ input: process.stdin, output: muted, terminal: true })
  try {
    return await reader.question('')
  } finally {
    reader.close()
    process.stderr.write('\n')
  }
}

/** `printf '%s\n' "$PASSWORD" | npm run -s admin -- …`: scripts pipe the secret in. */
async function firstLineOfStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return text.split(/\r?\n/)[0] ?? ''
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCli(process.argv.slice(2), commands, processIo()).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`)
      process.exit(1)
    },
  )
}
