import type { Logger } from './logger.ts'

/**
 * Runs `sweep` now and every `everyMs` until stopped (stale holds, old calls, public figures); a
 * failed run is logged and tried again at the next, and a run never overlaps the one before. The
 * timer never keeps a process alive; `stop` waits for a run in progress.
 */
export function periodicSweep(logger: Logger, name: string, everyMs: number, sweep: () => Promise<unknown>): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve()
  const run = () => {
    running = running.then(sweep).catch((error: unknown) => logger.error(`${name} sweep failed`, { error: String(error) }))
  }
  run()
  const timer = setInterval(run, everyMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
