/**
 * Redeem codes as operators handle them (docs/decisions/023-packages-teams-codes-resets.md), from the console
 * (relay/admin/routes.ts) and the CLI (subscriptions/cli.ts) alike: generate a batch, list codes
 * with their state, revoke an unused one; each change with its audit row in its transaction.
 */
import type { AdminRedeemCode, RedeemCodeState } from '../contract/admin.ts'
import type { ContentLanguage } from '../contract/languages.ts'
import { pageOffset, type PageQuery, type Paged } from '../contract/paging.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { inTransaction } from '../points/locks.ts'
import { createRedeemCodes } from './redeem-codes.ts'

export async function generateRedeemCodes(
  db: Database,
  operator: Operator,
  input: { packageCode: string; count: number; expiresDays?: number; now: number },
): Promise<{ batchId: string; codes: string[] }> {
  return inTransaction(db, async (trx) => {
    const { pkg, batchId, codes } = await createRedeemCodes(trx, input.now, input)
    await recordAudit(
      trx,
      operator,
      {
        action: 'redeem_codes.generate',
        target: { kind: 'redeem_batch', ref: batchId },
        after: { package: pkg.code, count: input.count, expires_days: input.expiresDays ?? null },
      },
      input.now,
    )
    return { batchId, codes }
  })
}

/**
 * Withdraws codes ticked on the console's list in one transaction, one audit row each. Codes used,
 * expired or revoked already are left alone and not counted; an unknown id changes nothing.
 */
export async function revokeRedeemCodes(db: Database, operator: Operator, input: { ids: string[]; now: number }): Promise<{ changed: number }> {
  const ids = [...new Set(input.ids)]
  return inTransaction(db, async (trx) => {
    const known = await trx.selectFrom('redeem_codes').select('id').where('id', 'in', ids).execute()
    if (known.length !== ids.length) throw new RelayError('not_found', 'no such redeem code')
    const revoked = await trx
      .updateTable('redeem_codes')
      .set({ revoked_timestamp: input.now })
      .where('id', 'in', ids)
      .where('used_by', 'is', null)
      .where('revoked_timestamp', 'is', null)
      .where((eb) => eb.or([eb('expires_timestamp', 'is', null), eb('expires_timestamp', '>', input.now)]))
      .returning('id')
      .execute()
    for (const { id } of revoked.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))) {
      await recordAudit(trx, operator, { action: 'redeem_code.revoke', target: { kind: 'redeem_code', ref: id }, before: { state: 'unused' }, after: { state: 'revoked' } }, input.now)
    }
    return { changed: revoked.length }
  })
}

/** Withdraws a code nobody has used: it is refused from then on as any invalid code. */
export async function revokeRedeemCode(db: Database, operator: Operator, input: { id: string; now: number }): Promise<void> {
  await inTransaction(db, async (trx) => {
    const revoked = await trx
      .updateTable('redeem_codes')
      .set({ revoked_timestamp: input.now })
      .where('id', '=', input.id)
      .where('used_by', 'is', null)
      .where('revoked_timestamp', 'is', null)
      .executeTakeFirst()
    if (revoked.numUpdatedRows === 0n) {
      const row = await trx.selectFrom('redeem_codes').select('id').where('id', '=', input.id).executeTakeFirst()
      throw row ? new RelayError('business_rule', 'the code was already used or revoked') : new RelayError('not_found', 'no such redeem code')
    }
    await recordAudit(trx, operator, { action: 'redeem_code.revoke', target: { kind: 'redeem_code', ref: input.id }, before: { state: 'unused' }, after: { state: 'revoked' } }, input.now)
  })
}

export interface RedeemCodeFilter extends PageQuery {
  state?: RedeemCodeState
  batch?: string
  ids?: string[]
}

/** Newest first. The codes themselves are stored hashed: a list shows ids, never codes. */
export async function listRedeemCodes(db: Database, filter: RedeemCodeFilter, now: number, lang: ContentLanguage): Promise<Paged<AdminRedeemCode>> {
  let query = db.selectFrom('redeem_codes').innerJoin('packages', 'packages.id', 'redeem_codes.package_id').leftJoin('users', 'users.id', 'redeem_codes.used_by')
  if (filter.batch) query = query.where('redeem_codes.batch_id', '=', filter.batch)
  if (filter.ids) query = query.where('redeem_codes.id', 'in', filter.ids)
  switch (filter.state) {
    case 'used':
      query = query.where('redeem_codes.used_by', 'is not', null)
      break
    case 'revoked':
      query = query.where('redeem_codes.revoked_timestamp', 'is not', null)
      break
    case 'expired':
      query = query.where('redeem_codes.used_by', 'is', null).where('redeem_codes.revoked_timestamp', 'is', null).where('redeem_codes.expires_timestamp', '<=', now)
      break
    case 'unused':
      query = query
        .where('redeem_codes.used_by', 'is', null)
        .where('redeem_codes.revoked_timestamp', 'is', null)
        .where((eb) => eb.or([eb('redeem_codes.expires_timestamp', 'is', null), eb('redeem_codes.expires_timestamp', '>', now)]))
      break
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll('redeem_codes')
      .select(['users.username as used_by_name', 'packages.code as package_code', 'packages.name_zh', 'packages.name_en', 'packages.name_ja'])
      .orderBy('redeem_codes.id', 'desc')
      .limit(filter.pageSize)
      .offset(pageOffset(filter))
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map((row) => ({
      id: row.id,
      batch_id: row.batch_id,
      package_code: row.package_code,
      package_name: row[`name_${lang}`],
      state: stateOf(row, now),
      expires_timestamp: row.expires_timestamp,
      used_by: row.used_by,
      used_by_name: row.used_by_name,
      used_timestamp: row.used_timestamp,
      revoked_timestamp: row.revoked_timestamp,
      create_timestamp: row.create_timestamp,
    })),
    total: Number(count.total),
    page: filter.page,
    pageSize: filter.pageSize,
  }
}

function stateOf(row: { used_by: string | null; revoked_timestamp: number | null; expires_timestamp: number | null }, now: number): RedeemCodeState {
  if (row.used_by !== null) return 'used'
  if (row.revoked_timestamp !== null) return 'revoked'
  if (row.expires_timestamp !== null && row.expires_timestamp <= now) return 'expired'
  return 'unused'
}
