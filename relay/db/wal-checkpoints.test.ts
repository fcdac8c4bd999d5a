import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, expect, it } from 'vitest'
import { openDatabase } from './open-database.ts'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function databaseFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'wal-checkpoints-'))
  folders.push(folder)
  return join(folder, 'relay.sqlite')
}

it('checkpoints on its own thread: a commit past 1,000 pages of log leaves the file as it was, and the thread copies the log in soon after', async () => {
  const path = databaseFile()
  const failures: Error[] = []
  const db = openDatabase(path, { onCheckpointFailure: (error) => failures.push(error) })
  try {
    await sql`create table filler (id integer primary key, text text not null)`.execute(db)
    // About 8 MB of log in one commit: SQLite's own checkpoint would run inside it (past 1,000 pages).
    await sql`insert into filler (text) with recursive n(i) as (select 1 union all select i + 1 from n where i < 4000) select printf('%.2000c', 'x') from n`.execute(db)
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(8_000_000)
    // Still a page or two: the thread may have copied the table's creation in, not yet this commit.
    expect(statSync(path).size).toBeLessThan(100_000)
    await expect.poll(() => statSync(path).size, { timeout: 5000, interval: 20 }).toBeGreaterThan(8_000_000)
    // The log starts again from its beginning at the next write: it does not grow with every call.
    await sql`insert into filler (text) values ('after')`.execute(db)
    const { rows } = await sql<{ log: number }>`pragma wal_checkpoint(passive)`.execute(db)
    expect(rows[0]!.log).toBeLessThan(10)
  } finally {
    await db.destroy()
  }
  expect(failures).toEqual([])
  // The thread's connection closed first: the server's, the last one, removed the log.
  expect(existsSync(`${path}-wal`)).toBe(false)
})

it('falls back to SQLite checkpointing inside commits when the thread dies: the failure is reported and no log grows without bound', async () => {
  const path = databaseFile()
  const failures: Error[] = []
  const db = openDatabase(path, { onCheckpointFailure: (error) => failures.push(error) })
  // The thread opens the file by its name once it has started, tens of milliseconds from now; the
  // server's connection holds the file open already. A folder in the file's place makes the
  // thread's open fail, as a file gone or unreadable would.
  renameSync(path, `${path}-moved`)
  mkdirSync(path)
  try {
    await expect.poll(() => failures.length, { timeout: 5000, interval: 20 }).toBe(1)
    await expect.poll(async () => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint, { timeout: 5000, interval: 20 }).toBe(1000)
    await sql`create table filler (id integer primary key, text text not null)`.execute(db)
    // Past 1,000 pages of log: the commit now copies it into the file itself.
    await sql`insert into filler (text) with recursive n(i) as (select 1 union all select i + 1 from n where i < 4000) select printf('%.2000c', 'x') from n`.execute(db)
    expect(statSync(`${path}-moved`).size).toBeGreaterThan(8_000_000)
  } finally {
    await db.destroy()
  }
  // What the operator's log says: SQLite's reason, not an empty message.
  expect(failures[0]!.message).toMatch(/^SQLITE_CANTOPEN: /)
})
