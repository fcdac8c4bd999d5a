/**
 * PostgreSQL's functions of the money rules (docs/money.md): each written once, in a `.sql` file
 * beside the TypeScript it mirrors, and applied after the migrations whenever its text changes.
 * Migrations no longer define functions; a fresh database and an upgraded one end with exactly
 * the functions listed here.
 *
 * A file holds one `create or replace function` statement. Names in double braces are
 * constants of `constants` below, substituted before it is applied, so a number such as the
 * relay's day offset is written once, in TypeScript. `create or replace` cannot change a
 * function's arguments or result: give it a new name or arguments (an overload, so relays of
 * the previous version keep theirs during an upgrade) and list the old one in `retired` once
 * no serving relay calls it.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { dayMs, dayOffsetMs, hourMs } from '../contract/days.ts'
import { isPostgres, type Database } from './open-database.ts'

/** relay_settle's SQLSTATE for a hold that is not open (points/ledger.ts reads it). */
export const holdNotOpen = 'RL409'

const constants: Record<string, string | number> = {
  dayMs,
  dayOffsetMs,
  /** A plan's refill period (points/refill.ts): relay_freeze leaves a due refill to the ledger. */
  hourMs,
  holdNotOpen,
}

/** Each function's file, named for the function. */
const files = [
  new URL('../points/relay_freeze.sql', import.meta.url),
  new URL('../points/relay_settle.sql', import.meta.url),
  new URL('../proxy/relay_settle_calls.sql', import.meta.url),
  new URL('../proxy/relay_settle_calls_unflushed.sql', import.meta.url),
]

/** Overloads no relay of this version or the previous one calls, dropped (identity arguments as PostgreSQL prints them). */
const retired = [
  // Migration 0036's freeze, succeeded by the one that also confirms a cached key (migration 0042).
  'relay_freeze(bigint, integer, integer, character varying, bigint, bigint, bigint, character varying)',
]

export interface FunctionDefinition {
  name: string
  /** The statement to run: the file's text with the constants substituted. */
  text: string
  sha256: string
}

export function functionDefinitions(): FunctionDefinition[] {
  return files.map((file) => {
    const name = file.pathname.slice(file.pathname.lastIndexOf('/') + 1, -'.sql'.length)
    const text = readFileSync(file, 'utf8').replace(/\{\{(\w+)\}\}/g, (_, constant: string) => {
      if (!(constant in constants)) throw new Error(`${name}.sql names an unknown constant {{${constant}}}`)
      return String(constants[constant])
    })
    return { name, text, sha256: createHash('sha256').update(text).digest('hex') }
  })
}

/**
 * Replaces every function whose text changed since it was last applied, and drops the retired
 * ones; a no-op on SQLite, whose rules are the TypeScript alone. Called by the migrator after
 * the migrations, on its connection and under its retries (migrate.ts): one transaction, which
 * first locks `relay_functions` so relays starting together apply each text once.
 */
export async function applyFunctions(db: Database, now = Date.now()): Promise<void> {
  if (!isPostgres(db)) return
  const definitions = functionDefinitions()
  await db.transaction().execute(async (trx) => {
    await sql`lock table relay_functions in exclusive mode`.execute(trx)
    const applied = new Map((await trx.selectFrom('relay_functions').select(['name', 'sha256']).execute()).map((row) => [row.name, row.sha256]))
    for (const definition of definitions) {
      if (applied.get(definition.name) === definition.sha256) continue
      await sql.raw(definition.text).execute(trx)
      await trx
        .insertInto('relay_functions')
        .values({ name: definition.name, sha256: definition.sha256, applied_timestamp: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ sha256: definition.sha256, applied_timestamp: now }))
        .execute()
    }
    for (const signature of retired) await sql.raw(`drop function if exists ${signature}`).execute(trx)
  })
}
