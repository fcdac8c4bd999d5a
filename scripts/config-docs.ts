/**
 * `npm run config:docs`: writes docs/configuration.md's table and .env.example from the
 * declarations in relay/config.ts (relay/config.test.ts fails while they differ).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { configurationTable, envExample } from '../relay/config.ts'

const doc = 'docs/configuration.md'
const start = '<!-- The table is generated from relay/config.ts: npm run config:docs -->'
const end = '<!-- end of the generated table -->'
const text = readFileSync(doc, 'utf8')
const [before, rest] = text.split(start)
const after = rest?.split(end)[1]
if (before === undefined || after === undefined) throw new Error(`${doc} has lost its markers: ${start} … ${end}`)
writeFileSync(doc, `${before}${start}\n${configurationTable()}\n${end}${after}`)
writeFileSync('.env.example', envExample())
console.log(`wrote ${doc} and .env.example`)
