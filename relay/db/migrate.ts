import { Migrator, sql } from 'kysely'
import { isPostgres, isPostgresUrl, openDatabase, type Database, type OpenDatabaseOptions } from './open-database.ts'
import { migrations } from './migrations/index.ts'
import { applyFunctions } from './functions.ts'
import { isLockConflict } from './unavailable.ts'

/**
 * Brings the schema up to date, then PostgreSQL's functions (functions.ts); safe to run from
 * several processes at once (Kysely takes a lock: an advisory lock on PostgreSQL, the single
 * connection on SQLite; the functions' step locks its own table).
 */
export async function migrateToLatest(db: Database): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its bookkeeping table in every schema unless told which one; with one
    // schema per test suite it would find another suite's table. Pin it to the current schema.
    migrationTableSchema: isPostgres(db) ? await currentSchema(db) : undefined,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`database migration ${failed ?? ''} failed: ${String(error)}`, { cause: error })
  }
  await applyFunctions(db).catch((error: unknown) => {
    throw new Error(`database functions failed: ${String(error)}`, { cause: error })
  })
}

export interface MigrateAtStartOptions {
  /** PostgreSQL: how long one statement of a migration may wait for a lock before the whole migration is tried again. */
  lockTimeoutMs?: number
  /** PostgreSQL: how long to keep trying before the start fails. */
  giveUpAfterMs?: number
  /** Told of each migration given up for a lock, before the pause that follows it. */
  onLockConflict?: (attempt: number, reason: string, pauseMs: number) => void
}

/** A migration statement may run this long: an index built over millions of rows, or a table recounted, takes minutes. */
const migrationDeadlineMs = 2 * 3600_000

/**
 * How a relay brings the schema and functions up to date as it starts (runtime.ts). On SQLite, with `db`. On
 * PostgreSQL other relays may be serving on the same database meanwhile (a rolling upgrade), so
 * the migration runs on a connection of its own (docs/decisions/013-the-database.md):
 * - without the deadline the relay's own statements keep (`timeoutMs`, DATABASE_TIMEOUT_MS): a
 *   migration may rightly take minutes, and so may the wait for another relay migrating first;
 * - with a short `lock_timeout`: a schema change queued behind a live call's transaction would
 *   hold up every later call on that table behind it, and could deadlock with a settlement. It gives
 *   way instead: its transaction rolls back whole, and it is tried again after a pause.
 */
export async function migrateAtStart(
  db: Database,
  url: string,
  connection: Pick<OpenDatabaseOptions, 'searchPath' | 'onConnectionError'>,
  { lockTimeoutMs = 5_000, giveUpAfterMs = 15 * 60_000, onLockConflict }: MigrateAtStartOptions = {},
): Promise<void> {
  if (!isPostgresUrl(url)) return migrateToLatest(db)
  const migrating = openDatabase(url, { ...connection, poolSize: 1, timeoutMs: migrationDeadlineMs, lockTimeoutMs })
  const giveUpAt = Date.now() + giveUpAfterMs
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await migrateToLatest(migrating)
      } catch (error) {
        if (!isLockConflict(error) || Date.now() >= giveUpAt) throw error
        const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)
        // Jittered, so relays that gave way together do not collide again together.
        const pauseMs = Math.round(Math.min(lockTimeoutMs, 1_000 * attempt) * (0.5 + Math.random()))
        onLockConflict?.(attempt, reason, pauseMs)
        await new Promise((resolve) => setTimeout(resolve, pauseMs))
      }
    }
  } finally {
    await migrating.destroy()
  }
}

async function currentSchema(db: Database): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  if (!schema) throw new Error('the PostgreSQL search_path names no existing schema')
  return schema
}
