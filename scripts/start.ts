/**
 * `npm start`: builds the portal when the build is missing or older than its sources, then runs
 * the production server. Run without NODE_ENV=production (a local try-out), missing secrets are
 * generated under data/; with NODE_ENV=production set by the operator they are required.
 *
 * The server runs in this same process, not a child: a supervisor's SIGTERM or a Ctrl-C reaches
 * it directly, and no wrapper can die and leave it orphaned on its port.
 */
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { configOrExit, loadConfig, useConfig } from '../relay/config.ts'

const sources = ['app', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json']
// Production mode either way; secrets are generated only when the operator did not ask for
// production themselves (a local try-out). The server and the portal build read this configuration.
const config = configOrExit(() =>
  useConfig(loadConfig({ ...process.env, NODE_ENV: 'production' }, { generateMissingSecrets: process.env.NODE_ENV !== 'production' })),
)
const { buildDir } = config.process
const buildMarker = `${buildDir}/server/index.js`

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs)
}

/**
 * The build's own output (about 60 lines of bundler progress and warnings) goes to a log file;
 * the console gets what is happening, where the log is, and the log's end if the build fails.
 */
function buildQuietly(log: string): void {
  console.log(`Building the portal (the build is missing or older than its sources); this takes a minute or two. Its output: ${log}`)
  const started = Date.now()
  const fd = openSync(log, 'w')
  const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', fd, fd] })
  closeSync(fd)
  if (result.status !== 0) {
    const tail = readFileSync(log, 'utf8').trimEnd().split('\n').slice(-30)
    console.error([...tail, '', `The build failed (its whole output is in ${log}).`].join('\n'))
    process.exit(result.status ?? 1)
  }
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`)
}

const stale = !existsSync(buildMarker) || Math.max(...sources.map(newestMtime)) > statSync(buildMarker).mtimeMs
if (stale) buildQuietly(`${buildDir}.log`)

// npm forwards SIGTERM and SIGINT here (the script execs node, so no shell sits between to swallow
// them). If npm itself is killed outright, nothing is forwarded: a server whose parent is gone
// stops as if told to, instead of staying orphaned on its port.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM')
}, 1000).unref()

await import('../server/main.ts')
