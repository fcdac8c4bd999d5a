/**
 * SQLite's WAL checkpoints on a thread of their own, off the event loop.
 *
 * By default SQLite checkpoints inside the COMMIT that takes its write-ahead log past 1,000
 * pages: it copies the log into the database file and waits for the disk twice, 20–30 ms on
 * this kind of machine, during which the relay's one thread answers nothing. A relayed call
 * writes 15–20 pages, so under load that was one stall every fifty calls: most of the relay's
 * added latency at the 99th percentile, and of its event-loop delay.
 *
 * The server's connection therefore never checkpoints (`wal_autocheckpoint = 0`); a worker
 * thread with its own connection to the file runs a PASSIVE checkpoint every `intervalMs`,
 * which never blocks a writer. The log restarts from its beginning at the first write after a
 * checkpoint that caught up with it, so it stays as small as before. Should the thread die, the
 * server's connection checkpoints itself again, as SQLite does by default.
 *
 * The worker is plain JavaScript evaluated as a string: it then runs the same under tsx, the
 * tests' loader and a bare Node, none of whose module hooks a worker thread may share.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type BetterSqlite3 from 'better-sqlite3'

/** How often the thread checkpoints: about as often as the 1,000-page default did under load. */
const intervalMs = 100
/** SQLite's own default, restored when the thread is gone. */
const defaultAutocheckpointPages = 1000

const checkpointer = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
// Thrown as a plain Error: better-sqlite3's SqliteError reaches the main thread without its message.
const plain = (error) => new Error((error.code ? error.code + ': ' : '') + error.message)
let db, checkpoint
try {
  db = new Database(workerData.path)
  db.pragma('synchronous = NORMAL')
  // Another process's checkpoint, or a writer's brief lock: skipped, tried again next time.
  db.pragma('busy_timeout = 0')
  checkpoint = db.prepare('pragma wal_checkpoint(passive)')
} catch (error) {
  throw plain(error)
}
const timer = setInterval(() => {
  try {
    checkpoint.run()
  } catch (error) {
    if (error.code !== 'SQLITE_BUSY') throw plain(error)
  }
}, workerData.intervalMs)
parentPort.on('message', () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

export interface WalCheckpoints {
  /** Stops the thread and closes its connection. */
  stop(): Promise<void>
}

/** Checkpoints `database` (a file in WAL mode) on a worker thread from now on. */
export function checkpointInBackground(database: BetterSqlite3.Database, onFailure: (error: Error) => void): WalCheckpoints {
  database.pragma('wal_autocheckpoint = 0')
  const worker = new Worker(checkpointer, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path: database.name, intervalMs },
  })
  // A thread that only keeps the file tidy must not keep the process alive.
  worker.unref()
  let stopping = false
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping && database.open) database.pragma(`wal_autocheckpoint = ${defaultAutocheckpointPages}`)
      resolve()
    }),
  )
  worker.once('error', onFailure)
  return {
    async stop() {
      if (stopping) return exited
      stopping = true
      worker.postMessage('stop')
      await exited
    },
  }
}
