/**
 * The deployment's public address for the operator CLI (docs/decisions/033-cli-tutorial-and-first-start.md). The server knows it
 * from PUBLIC_URL; the CLI often runs in another environment (a shell, `docker exec`) without it.
 * So every relay records the PUBLIC_URL it was started with in the database they share, and the
 * CLI prints links on PUBLIC_URL when its own environment has one, else on the recorded one, and
 * prints none when neither is known, rather than a guess such as http://localhost:3000.
 */
import type { RelayConfig } from '../config.ts'
import type { Database } from '../db/open-database.ts'

const setting = 'public_url'

/**
 * At start: records PUBLIC_URL, or forgets an address recorded earlier when this start has none
 * (the server then knows its address no better than the CLI does).
 */
export async function recordPublicUrl(db: Database, config: Pick<RelayConfig, 'publicUrl' | 'publicUrlConfigured'>, now: number): Promise<void> {
  if (!config.publicUrlConfigured) {
    await db.deleteFrom('deployment_settings').where('name', '=', setting).execute()
    return
  }
  const row = { name: setting, value: config.publicUrl, update_timestamp: now } as const
  await db
    .insertInto('deployment_settings')
    .values(row)
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: row.value, update_timestamp: row.update_timestamp }))
    .execute()
}

/** The address to print links on: this process's PUBLIC_URL, else the server's recorded one; null when neither is known. */
export async function knownPublicUrl(db: Database, config: Pick<RelayConfig, 'publicUrl' | 'publicUrlConfigured'>): Promise<string | null> {
  if (config.publicUrlConfigured) return config.publicUrl
  const row = await db.selectFrom('deployment_settings').select('value').where('name', '=', setting).executeTakeFirst()
  return row?.value ?? null
}

/** Printed instead of a link the CLI cannot know. */
export const unknownPublicUrlHint =
  'PUBLIC_URL is not set here, and the server has not recorded one (it records its PUBLIC_URL at every start): ' +
  'start the server with PUBLIC_URL, or run this command with the same PUBLIC_URL'
