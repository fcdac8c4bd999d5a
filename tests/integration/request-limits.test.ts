/**
 * Bodies are capped on every route of the production server, portal actions included, and
 * refused before they are read; a form that cannot be parsed is the sender's mistake (400).
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../fixtures/databases.ts'
import { startProductionServer, type ProductionServer } from '../fixtures/production-server.ts'

const tenMegabytes = 10 * 1024 * 1024

/**
 * Announces a `declared`-byte form, sends only its first 64 KiB and waits for the answer: a
 * status that arrives then was decided without the rest of the body.
 */
function answerToAnnouncedBody(port: number, path: string, declared: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.setTimeout(10_000, () => {
      socket.destroy()
      reject(new Error('no answer while the body was still being announced'))
    })
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1')
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)
      if (status) {
        socket.destroy()
        resolve(Number(status[1]))
      }
    })
    socket.on('error', reject)
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${declared}\r\n\r\n`,
    )
    socket.write('a='.padEnd(64 * 1024, 'a'))
  })
}

describe('request limits of the production server', () => {
  let database: TestDatabase
  let server: ProductionServer

  beforeAll(async () => {
    database = await createTestDatabase('sqlite')
    server = await startProductionServer(database)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    await database?.dispose()
  })

  it('answers a 10 MB form to any page action 413 before reading it', async () => {
    for (const path of ['/auth/login', '/auth/register', '/tickets/create', '/api-keys', '/profile', '/resources/theme', '/no-such-page']) {
      expect(await answerToAnnouncedBody(server.port, path, tenMegabytes), path).toBe(413)
    }
    // The relay's own routes cap theirs too.
    expect(await answerToAnnouncedBody(server.port, '/api/user/login', tenMegabytes)).toBe(413)
  })

  it('cuts off an oversized body sent without a Content-Length (chunked)', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(0x61)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= tenMegabytes) return controller.close()
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const answer = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    } as RequestInit)
    expect(answer.status).toBe(413)
  })

  it('holds no more than a few MB after twenty 10 MB forms', async () => {
    const before = server.residentBytes()
    const form = `username=x&password=${'a'.repeat(tenMegabytes)}`
    for (let i = 0; i < 20; i += 1) {
      const answer = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      }).catch(() => null)
      // The server may close the connection on its answer before taking the whole body.
      if (answer) expect(answer.status).toBe(413)
    }
    expect(server.residentBytes() - before).toBeLessThan(8 * 1024 * 1024)
    expect((await fetch(`${server.url}/resources/health`)).status).toBe(200)
  })

  it('refuses a form that cannot be parsed with 400, and 20,000 form fields without a 500', async () => {
    const headers = { origin: server.url }
    const broken = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      body: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=zz' },
    })
    expect(broken.status).toBe(400)
    const json = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      body: '{"username":"x"}',
      headers: { ...headers, 'content-type': 'application/json' },
    })
    expect(json.status).toBe(400)
    const manyFields = Array.from({ length: 20_000 }, (_, i) => `--zz\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n1\r\n`).join('') + '--zz--\r\n'
    const multipart = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      body: manyFields,
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=zz' },
    })
    expect([400, 413]).toContain(multipart.status)
    const urlEncoded = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      body: Array.from({ length: 20_000 }, (_, i) => `f${i}=1`).join('&'),
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(urlEncoded.status).toBeLessThan(500)
    expect(server.alive()).toBe(true)
  })
})
