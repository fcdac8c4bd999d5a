import { sendDueAlerts } from '../alerts/deliveries.ts'
import { periodicSweep } from '../periodic-sweep.ts'
import type { RelayServices } from '../services.ts'
import { scanForEvents } from './events.ts'
import { sendDueMails } from './queue.ts'

/** Balances and package ends are looked at once a minute. */
const scanEveryMs = 60_000

/**
 * This relay's sender: every `mailPollMs` it looks for events (a minute apart) and sends the mails
 * and alert messages that are due. Several relays on one database each run one; the claims keep
 * them apart.
 */
export function startMailSender(services: RelayServices): { stop(): Promise<void> } {
  let lastScan = Number.NEGATIVE_INFINITY
  return periodicSweep(services.logger, 'mail queue', services.config.mailPollMs, async () => {
    const now = services.clock.now()
    if (now - lastScan >= scanEveryMs) {
      lastScan = now
      await scanForEvents(services)
    }
    await sendDueMails(services)
    await sendDueAlerts(services)
  })
}
