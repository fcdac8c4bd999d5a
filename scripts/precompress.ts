/**
 * After `react-router build`: writes a .br and a .gz beside every compressible client asset, so
 * the server sends pre-compressed bytes without spending CPU per request (docs/architecture.md §10).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { buildDirectory } from '../relay/config.ts'

const root = `${buildDirectory()}/client`
const compressible = /\.(js|css|html|svg|json|txt|map|webmanifest)$/

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

let files = 0
let before = 0
let after = 0
for (const file of walk(root)) {
  if (!compressible.test(file)) continue
  const bytes = readFileSync(file)
  if (bytes.length < 512) continue
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
  writeFileSync(`${file}.br`, br)
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
  files++
  before += bytes.length
  after += br.length
}
console.log(`precompressed ${files} files: ${(before / 1024).toFixed(1)} KiB → ${(after / 1024).toFixed(1)} KiB brotli`)
