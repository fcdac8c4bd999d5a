/**
 * One line per event: `<ISO time> <LEVEL> <message> key=value …`. Never pass request or
 * response bodies: the relay keeps no conversation content and no secrets in its logs.
 */
export const logLevels = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof logLevels)[number]

export type LogFields = Record<string, string | number | boolean | null | undefined>

export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

export function createLogger(
  minimum: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const threshold = logLevels.indexOf(minimum)
  const at =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}): void => {
      if (logLevels.indexOf(level) < threshold) return
      write(`${new Date().toISOString()} ${level.toUpperCase()} ${message}${formatFields(fields)}`)
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

function formatFields(fields: LogFields): string {
  let out = ''
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue
    const text = String(value)
    out += ` ${key}=${/^[^\s"=]+$/.test(text) ? text : JSON.stringify(text)}`
  }
  return out
}
