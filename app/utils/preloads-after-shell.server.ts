/**
 * React hoists every `<link rel="modulepreload">` that `<Scripts>` renders into the head, so the
 * browser starts fetching 20-odd scripts while the document itself is still arriving, and on a
 * slow link the HTML (with its inlined stylesheet) shares the bandwidth with them. This transform
 * moves those links from the head to just before the first script in the body: they are read once
 * the page's content is in, and still fetch the module graph in parallel rather than import by
 * import (docs/decisions/030-first-paint-and-charts.md).
 *
 * React writes the shell (head and body up to `<Scripts>`) in one go, so holding it until the
 * first body script costs no time; everything after passes through untouched. Bytes are read as
 * latin1 (one character per byte), so a character split across chunks passes through intact.
 */
import { Transform } from 'node:stream'

const modulePreload = /<link rel="modulepreload"[^>]*\/>/g

export function preloadsAfterShell(): Transform {
  let held = ''
  let passing = false
  const release = (stream: Transform, scriptAt: number) => {
    const headEnd = held.indexOf('</head>')
    const head = held.slice(0, headEnd)
    const preloads = head.match(modulePreload) ?? []
    stream.push(Buffer.from(head.replace(modulePreload, '') + held.slice(headEnd, scriptAt) + preloads.join('') + held.slice(scriptAt), 'latin1'))
    held = ''
    passing = true
  }
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (passing) return callback(null, chunk)
      held += chunk.toString('latin1')
      const headEnd = held.indexOf('</head>')
      const scriptAt = headEnd === -1 ? -1 : held.indexOf('<script', headEnd)
      if (scriptAt !== -1) release(this, scriptAt)
      callback()
    },
    flush(callback) {
      // A document without a body script (an error before <Scripts>): nothing to move.
      if (!passing && held) this.push(Buffer.from(held, 'latin1'))
      callback()
    },
  })
}
