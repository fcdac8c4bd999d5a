/**
 * Whatever bytes arrive, the production server answers and stays up: every HTTP method, paths
 * with encoded line breaks, NUL, stray `%`, overlong and invalid UTF-8, absolute-form targets,
 * a duplicate Host. Sent over a raw socket, so nothing on the way tidies them up; each must be
 * refused with a 4xx (a 5xx would be our own fault, and is not accepted either), and
 * `/resources/health` must answer afterwards and later, when any timer a request armed has run.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../fixtures/databases.ts'
import { startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'
import { elapse } from '../fixtures/time.ts'

/** Sends `head` (a request line and headers, CRLF-terminated, no body) and returns the status of the answer, or null when the connection closed without one. */
function rawRequest(port: number, head: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.setTimeout(15_000, () => {
      socket.destroy()
      reject(new Error(`no answer within 15 s to ${JSON.stringify(head.split('\r\n')[0])}`))
    })
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)
      if (status) {
        socket.destroy()
        resolve(Number(status[1]))
      }
    })
    socket.on('error', () => resolve(null))
    socket.on('close', () => resolve(null))
    socket.write(Buffer.from(head, 'latin1'))
  })
}

const methods = ['OPTIONS', 'PROPFIND', 'TRACE', 'TRACK', 'CONNECT', 'PUT', 'PATCH', 'DELETE', 'MKCOL', 'LOCK', 'SEARCH', 'BREW']
const oddPaths = [
  '/%0a',
  '/%0d%0a',
  '/dashboard%0d%0a',
  '/dashboard%00',
  '/%00',
  '/%',
  '/%zz',
  '/dashboard/%',
  '/%c0%af',
  '/%c0%ae%c0%ae/etc/passwd',
  '/%ff%fe',
  '/%ed%a0%80',
  '/api/%0a',
  '/v1/%00',
  '/assets/%0a.js',
  '/resources/%ff',
]

describe.each(databaseKinds())('odd requests to the production server (%s)', (kind) => {
  let database: TestDatabase
  let server: ProductionServer

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    server = await startProductionServer(database)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    await database?.dispose()
  })

  const host = () => `Host: 127.0.0.1:${server.port}\r\n`

  it('refuses every method the portal and relay do not serve, on pages, /api and /v1', async () => {
    const answers: Record<string, number | null> = {}
    for (const method of methods) {
      for (const path of ['/', '/dashboard', '/auth/login', '/api/user/info', '/v1/messages']) {
        const target = method === 'CONNECT' ? `127.0.0.1:${server.port}` : path
        answers[`${method} ${path}`] = await rawRequest(server.port, `${method} ${target} HTTP/1.1\r\n${host()}Content-Length: 0\r\nConnection: close\r\n\r\n`)
      }
    }
    const wrong = Object.entries(answers).filter(([, status]) => status === null || status < 400 || status >= 500)
    expect(wrong).toEqual([])
    expect(server.alive()).toBe(true)
  })

  it('refuses paths with encoded control characters, stray % and broken UTF-8', async () => {
    const answers: Record<string, number | null> = {}
    for (const path of oddPaths) {
      for (const method of ['GET', 'POST']) {
        answers[`${method} ${path}`] = await rawRequest(server.port, `${method} ${path} HTTP/1.1\r\n${host()}Content-Length: 0\r\nConnection: close\r\n\r\n`)
      }
    }
    const wrong = Object.entries(answers).filter(([, status]) => status === null || status < 400 || status >= 500)
    expect(wrong).toEqual([])
  })

  it('refuses raw bytes no URL may hold, absolute-form targets of odd paths and a duplicate Host', async () => {
    const heads = {
      'raw invalid UTF-8': `GET /\xff\xfe HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
      'raw overlong UTF-8': `GET /\xc0\xaf HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
      'absolute-form, encoded LF': `GET http://127.0.0.1:${server.port}/%0a HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
      'absolute-form, other host, encoded CRLF': `GET http://evil.example/dashboard%0d%0a HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
      'absolute-form, OPTIONS': `OPTIONS http://127.0.0.1:${server.port}/ HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
      'duplicate Host': `GET / HTTP/1.1\r\n${host()}Host: evil.example\r\nConnection: close\r\n\r\n`,
      'no Host': `GET / HTTP/1.1\r\nConnection: close\r\n\r\n`,
      'overlong path': `GET /${'a'.repeat(20_000)}%0a HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
    }
    const answers: Record<string, number | null> = {}
    for (const [name, head] of Object.entries(heads)) answers[name] = await rawRequest(server.port, head)
    const wrong = Object.entries(answers).filter(([, status]) => status === null || status < 400 || status >= 500)
    expect(wrong).toEqual([])
  })

  it('keeps a query string with encoded line breaks out of the answer\'s headers', async () => {
    const answer = await fetch(`${server.url}/auth/login?next=%0d%0aSet-Cookie:%20x=1&lng=%0d%0aX-Injected:%201`, { redirect: 'manual' })
    expect(answer.status).toBeLessThan(500)
    expect(answer.headers.get('x-injected')).toBeNull()
    expect(answer.headers.getSetCookie().some((cookie) => cookie.startsWith('x='))).toBe(false)
  })

  it('is still up and answering once every timer those requests armed has run', async () => {
    // The render path's stream timeout is 6 s: a timer armed by a refused request fires by then.
    await elapse(7_000)
    expect(server.alive()).toBe(true)
    expect((await fetch(`${server.url}/resources/health`)).status).toBe(200)
    expect(server.output()).not.toMatch(/ReferenceError|uncaught exception|unhandled rejection/i)
  }, 20_000)
})
