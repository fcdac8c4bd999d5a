/**
 * `npx tsx scripts/lockfile-platforms.ts` after any `npm install`: the registry this project is
 * built against serves only Linux builds of platform binaries (rollup, tailwind's oxide), so npm
 * cannot write their lockfile entries, and `npm ci` then refuses the lockfile as out of sync.
 * This adds each missing optional platform package as an entry with its os/cpu/libc, which npm
 * skips on other platforms and fetches on its own one. See docs/decisions/014-lockfile-platform-entries.md.
 */
import { readFileSync, writeFileSync } from 'node:fs'

interface LockEntry {
  version?: string
  dev?: boolean
  optional?: boolean
  optionalDependencies?: Record<string, string>
  os?: string[]
  cpu?: string[]
  libc?: string[]
}

const file = 'package-lock.json'
const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> }
const systems = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'openharmony', 'sunos', 'aix', 'netbsd']
const cpus = ['arm64', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32', 'arm']

let added = 0
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${key ? `${key}/` : ''}node_modules/${name}`
    const top = `node_modules/${name}`
    if (lock.packages[nested] || lock.packages[top]) continue
    const parts = name.split('/').pop()!.split('-')
    const os = systems.find((s) => parts.includes(s))
    const cpu = cpus.find((c) => parts.includes(c))
    const stub: LockEntry = { version, ...(entry.dev ? { dev: true } : {}), optional: true }
    if (cpu) stub.cpu = [cpu]
    if (os) stub.os = [os]
    if (name.includes('musl')) stub.libc = ['musl']
    else if (os === 'linux' && name.includes('gnu')) stub.libc = ['glibc']
    lock.packages[top] = stub
    added++
  }
}

const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
)
writeFileSync(file, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`)
console.log(`lockfile: ${added} platform entries added`)
