/**
 * The operator CLI's commands (`npm run admin -- <command> [options]`). Each area declares its
 * commands in `relay/<area>/cli.ts` with `defineCommand` and lists them in relay/cli.ts. Options
 * are `--name value` strings (or `--flag` booleans), each validated by its zod schema; a schema
 * that accepts `undefined` (optional or defaulted) makes the option optional.
 */
import { parseArgs } from 'node:util'
import { z } from 'zod'
import type { RelayServices } from './services.ts'

export interface CommandOption<S extends z.ZodType = z.ZodType> {
  description: string
  schema: S
  /** A boolean `--flag` without a value, instead of `--name value`. */
  flag?: true
}

type Values<O extends Record<string, CommandOption>> = { [K in keyof O]: z.output<O[K]['schema']> }

/** One bare value before the options, e.g. the ticket in `ticket reply T2501150001 --message …`. */
export interface CommandArgument<A extends string = string> {
  /** The key its value gets among the option values, and its name in the usage. */
  name: A
  description: string
}

/** Without an argument (`never`) there is no extra value. */
type ArgumentValue<A extends string> = [A] extends [never] ? unknown : Record<A, string>

export interface CommandContext {
  services: RelayServices
  /** Writes one line of the command's result to stdout. */
  print(line: string): void
  /**
   * A secret the operator types at a prompt that does not echo it, or the first line piped to
   * stdin; with `fromStdin`, that line whatever stdin is (a script said so: `--password-stdin`).
   */
  readSecret(prompt: string, options?: { fromStdin?: boolean }): Promise<string>
}

export interface CommandSpec<O extends Record<string, CommandOption>, A extends string = never> {
  /** Words, e.g. `user create`. */
  name: string
  summary: string
  options: O
  /** A required positional value, handed to `run` as a string under `argument.name`. */
  argument?: CommandArgument<A>
  run(values: Values<O> & ArgumentValue<A>, context: CommandContext): Promise<void>
}

/** Type-erased, as the runner sees commands. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Command = CommandSpec<any, never>

/** Identity at runtime; infers `run`'s option values from the schemas. */
export function defineCommand<O extends Record<string, CommandOption>, A extends string = never>(spec: CommandSpec<O, A>): Command {
  return spec as Command
}

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export interface CliIo {
  stdout(line: string): void
  stderr(line: string): void
  /** Opens the relay's services only once a command is known to run. */
  openServices(): Promise<{ services: RelayServices; close(): Promise<void> }>
  readSecret: CommandContext['readSecret']
}

/**
 * Control characters other than line breaks and tabs, and the Unicode ones that reorder text,
 * drawn visibly instead of passed to the operator's terminal: user text (a ticket, a name) could
 * otherwise recolour the terminal, set its title, write its clipboard or hide part of a line.
 */
// eslint-disable-next-line no-control-regex
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export function printable(text: string): string {
  return text.replace(terminalControls, (ch) => (ch === '\u001b' ? '^[' : '\ufffd'))
}

/** Runs `argv` (without node and script); returns the process exit code. Everything printed goes through `printable`. */
export async function runCli(argv: readonly string[], commands: readonly Command[], rawIo: CliIo): Promise<number> {
  const io: CliIo = { ...rawIo, stdout: (line) => rawIo.stdout(printable(line)), stderr: (line) => rawIo.stderr(printable(line)) }
  const command = findCommand(argv, commands)
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(command ? commandHelp(command) : help(commands))
    return 0
  }
  if (!command) {
    io.stderr(`unknown command: ${argv.join(' ')}\n\n${help(commands)}`)
    return 2
  }
  const rest = argv.slice(command.name.split(' ').length)
  let values: Record<string, unknown>
  try {
    values = parseOptions(command, rest)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`${error.message}\n\n${commandHelp(command)}`)
    return 2
  }
  const { services, close } = await io.openServices()
  try {
    await command.run(values, { services, print: io.stdout, readSecret: io.readSecret })
    return 0
  } catch (error) {
    io.stderr(`${command.name}: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  } finally {
    await close()
  }
}

/** The longest command name that prefixes argv. */
function findCommand(argv: readonly string[], commands: readonly Command[]): Command | undefined {
  return [...commands]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((c) => c.name.split(' ').every((word, i) => argv[i] === word))
}

function parseOptions(command: Command, args: readonly string[]): Record<string, unknown> {
  const entries = Object.entries(command.options as Record<string, CommandOption>)
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...args],
      options: Object.fromEntries(entries.map(([name, option]) => [name, { type: option.flag ? 'boolean' : 'string' }])),
      strict: true,
      allowPositionals: command.argument !== undefined,
    })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const values: Record<string, unknown> = {}
  const problems: string[] = []
  if (command.argument) {
    const [argument, ...extra] = parsed.positionals
    if (argument === undefined || extra.length > 0) problems.push(`<${command.argument.name}>: exactly one value required`)
    else values[command.argument.name] = argument
  }
  for (const [name, option] of entries) {
    const result = option.schema.safeParse(parsed.values[name])
    if (result.success) values[name] = result.data
    else problems.push(`--${name}: ${parsed.values[name] === undefined ? 'required' : result.error.issues.map((i) => i.message).join('; ')}`)
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'))
  return values
}

function help(commands: readonly Command[]): string {
  const lines = ['Usage: npm run -s admin -- <command> [options]', '', 'Commands:']
  for (const command of [...commands].sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push(`  ${usage(command).padEnd(24)} ${command.summary}`, ...optionLines(command))
  }
  lines.push('', 'Configuration comes from the environment (DATABASE_URL, …) as for the relay.')
  return lines.join('\n')
}

function commandHelp(command: Command): string {
  return [`Usage: npm run -s admin -- ${usage(command)} [options]`, '', command.summary, ...optionLines(command)].join('\n')
}

function usage(command: Command): string {
  return command.argument ? `${command.name} <${command.argument.name}>` : command.name
}

function optionLines(command: Command): string[] {
  const argument = command.argument ? [`      ${`<${command.argument.name}>`.padEnd(32)} ${command.argument.description}`] : []
  const options = Object.entries(command.options as Record<string, CommandOption>).map(([name, option]) => {
    const value = option.flag ? '' : ` <${valueHint(option.schema)}>`
    const required = option.schema.safeParse(undefined).success ? '' : ' (required)'
    return `      --${`${name}${value}`.padEnd(30)} ${option.description}${required}`
  })
  return [...argument, ...options]
}

/** `normal|vip|team|admin` for an enum (also under a default), else `value`. */
function valueHint(schema: z.ZodType): string {
  const inner = schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema
  return inner instanceof z.ZodEnum ? (inner.options as string[]).join('|') : 'value'
}
