/**
 * The floor bench/streams.ts sets the relay's CPU beside: an HTTP hop that reads each byte of a
 * provider's stream once and writes it once, and does nothing else (no key, no price, no meter,
 * no ledger). `tsx bench/pipe-proxy.ts <provider base URL> <port>`; prints its URL when listening.
 */
import http from 'node:http'

const [target, port] = [new URL(process.argv[2]!), Number(process.argv[3] ?? 0)]
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })

const server = http.createServer((req, res) => {
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
