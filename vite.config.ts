import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { getRequestListener } from '@hono/node-server'
import { defineConfig, type Plugin } from 'vite'
import { isRelayTarget } from './server/relay-paths.ts'

/**
 * `npm run dev`: the relay runs inside the Vite dev server exactly as in production, mounted at
 * /api and /v1 (server/relay-paths.ts) and handed to the portal in-process (server/embedded-relay.ts).
 */
function embeddedRelay(): Plugin {
  return {
    name: 'embedded-relay',
    apply: 'serve',
    async configureServer(server) {
      // Parsed once here for the portal's modules too (relay/config.ts).
      const { configOrExit } = (await server.ssrLoadModule('/relay/config.ts')) as typeof import('./relay/config.ts')
      const config = configOrExit()
      if (!config.relay) return
      const { startEmbeddedRelay } = (await server.ssrLoadModule('/server/embedded-relay.ts')) as typeof import('./server/embedded-relay.ts')
      const relay = await startEmbeddedRelay(config.relay)
      const listener = getRequestListener((request, env: { incoming?: { socket: { remoteAddress?: string } } }) =>
        relay.fetch(request, { clientIp: env.incoming?.socket.remoteAddress ?? '127.0.0.1' }),
      )
      server.middlewares.use((req, res, next) => {
        if (req.url && isRelayTarget(req.url)) return void listener(req, res)
        next()
      })
      server.httpServer?.once('close', () => void relay.close())
    },
  }
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), embeddedRelay()],
  server: { port: Number(process.env.PORT) || 3000, strictPort: true },
  build: { target: 'es2022' },
  // The server build takes in the icons it uses instead of importing all of lucide-react (51 MB) at
  // run time: the package is then a build-time dependency only.
  ssr: { noExternal: ['lucide-react'] },
})
