import { Migrator, sql } from 'kysely'
import { isPostgres, type Database } from './open-database.ts'
import { migrations } from './migrations/index.ts'

/**
 * Brings the schema up to date; safe to run from several processes at once (Kysely takes a
 * lock: an advisory lock on PostgreSQL, the single connection on SQLite).
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
}

async function currentSchema(db: Database): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  if (!schema) throw new Error('the PostgreSQL search_path names no existing schema')
  return schema
}
