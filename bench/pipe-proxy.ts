/**
 * The floor bench/streams.ts sets the relay's CPU beside: an HTTP hop that reads each byte of a
 * provider's stream once and writes it once, and does nothing else (no key, no price, no meter,
 * no ledger). To an `https:` provider it speaks HTTP/2, up to 100 streams a connection, as the
 * relay does with PROVIDER_HTTP2. `tsx bench/pipe-proxy.ts <provider base URL> <port>`; prints
 * its URL when listening.
 */
import http from 'node:http'
import http2 from 'node:http2'

const [target, port] = [new URL(process.argv[2]!), Number(process.argv[3] ?? 0)]
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
const streamsPerSession = 100
const sessions: http2.ClientHttp2Session[] = []
const openStreams = new WeakMap<http2.ClientHttp2Session, number>()

/** A session to the provider with room for one more stream. */
function session(): http2.ClientHttp2Session {
  let open = sessions.find((s) => !s.closed && !s.destroyed && openStreams.get(s)! < streamsPerSession)
  if (!open) {
    open = http2.connect(target)
    open.on('error', () => {})
    openStreams.set(open, 0)
    sessions.push(open)
    open.once('close', () => sessions.splice(sessions.indexOf(open!), 1))
  }
  return open
}

const server = http.createServer((req, res) => {
  if (target.protocol === 'https:') {
    const to = session()
    openStreams.set(to, openStreams.get(to)! + 1)
    const headers: http2.OutgoingHttpHeaders = { ...req.headers, ':method': req.method, ':path': req.url }
    for (const name of ['connection', 'host', 'keep-alive', 'transfer-encoding']) delete headers[name]
    const upstream = to.request(headers)
    upstream.once('close', () => openStreams.set(to, openStreams.get(to)! - 1))
    upstream.on('response', (head) => {
      const { ':status': status, ...rest } = head
      res.writeHead(Number(status ?? 502), rest)
      upstream.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    res.on('close', () => upstream.close())
    return void req.pipe(upstream)
  }
  const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  upstream.on('error', () => res.destroy())
  req.pipe(upstream)
})
server.listen(port, '127.0.0.1', () => {
  const address = server.address()
  console.log(`pipe listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`)
})
process.on('SIGTERM', () => process.exit(0))
