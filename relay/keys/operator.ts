/**
 * An operator disables or enables some of a user's API keys (docs/console.md): the same
 * switch the owner has (a disabled key is refused as an unknown one would be), with one audit row
 * per key whose state changed, in the transaction of the change.
 */
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { inTransaction } from '../points/locks.ts'
import { forgetApiKey } from './service.ts'

export async function setKeysEnabledAsOperator(
  db: Database,
  operator: Operator,
  change: { userId: string; keyIds: string[]; enabled: boolean; now: number },
): Promise<{ changed: number }> {
  const keyIds = [...new Set(change.keyIds)]
  return inTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom('api_keys')
      .select(['id', 'name', 'disabled_timestamp'])
      .where('user_id', '=', change.userId)
      .where('deleted_at', 'is', null)
      .where('id', 'in', keyIds)
      .orderBy('id')
      .execute()
    // A key of someone else, or deleted since the page was read: nothing is changed.
    if (rows.length !== keyIds.length) throw new RelayError('not_found', 'API key not found')
    const moving = rows.filter((row) => (row.disabled_timestamp === null) !== change.enabled)
    if (moving.length === 0) return { changed: 0 }
    await trx
      .updateTable('api_keys')
      .set({ disabled_timestamp: change.enabled ? null : change.now })
      .where('id', 'in', moving.map((row) => row.id))
      .execute()
    for (const row of moving) {
      forgetApiKey(row.id)
      await recordAudit(
        trx,
        operator,
        {
          action: change.enabled ? 'api_key.enable' : 'api_key.disable',
          target: { kind: 'api_key', ref: row.id },
          before: { name: row.name, enabled: !change.enabled },
          after: { name: row.name, enabled: change.enabled },
        },
        change.now,
      )
    }
    return { changed: moving.length }
  })
}
