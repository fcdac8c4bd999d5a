/**
 * A honeypot on the public forms (docs/architecture.md §8): bots fill the hidden field and are turned away
 * before the action runs. remix-utils' middleware does the checking.
 */
import { createHoneypotMiddleware } from 'remix-utils/middleware/honeypot'
import { sessionSecrets } from '#server/env.ts'

export const [honeypotMiddleware, getHoneypotInputProps] = createHoneypotMiddleware({
  encryptionSeed: sessionSecrets()[0],
  onSpam: () => new Response('Form rejected', { status: 400 }),
})
