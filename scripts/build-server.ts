/**
 * Compiles the production processes to JavaScript, so the container runs them with plain `node`
 * (no TypeScript loader, and no `tsx` or esbuild among its run-time dependencies):
 * `<build>/start/server.js` (server/main.ts), `relay.js` (relay/main.ts), `cli.js` (relay/cli.ts).
 * Our modules are bundled into each file; packages stay imports of node_modules, which keeps
 * better-sqlite3's native binding where it was built. `npm start` still runs the sources through tsx.
 */
import { cpSync, readdirSync } from 'node:fs'
import { build } from 'esbuild'
import { buildDirectory } from '../relay/config.ts'

const buildDir = buildDirectory()

await build({
  entryPoints: { server: 'server/main.ts', relay: 'relay/main.ts', cli: 'relay/cli.ts' },
  outdir: `${buildDir}/start`,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  // Modules imported on demand (telemetry/otlp-tracing.ts) stay chunks of their own, loaded only then.
  splitting: true,
  target: 'node22',
  logLevel: 'warning',
})

// PostgreSQL's functions are read at start from `.sql` files beside their TypeScript twins
// (relay/db/functions.ts, by URLs relative to relay/db/). Bundled, that module runs from
// <build>/start/, so each relay/<dir>/<name>.sql goes to <build>/<dir>/<name>.sql, where the same
// relative URLs find it.
for (const file of readdirSync('relay', { recursive: true, encoding: 'utf8' })) {
  if (file.endsWith('.sql')) cpSync(`relay/${file}`, `${buildDir}/${file}`)
}
