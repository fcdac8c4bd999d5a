/**
 * Packages as operators handle them, from the console (relay/admin/catalog-routes.ts) and the CLI
 * (subscriptions/cli.ts) alike, each change with its audit row in its transaction
 * (docs/decisions/116-operator-audit-log.md). A package's texts may change at any time; its terms only while no
 * subscription and no redeem code refers to it, since subscriptions read their package's terms
 * live and a printed code must keep meaning what it meant (docs/decisions/020-points-ledger.md, decisions/115-operator-console.md).
 */
import type { PackageListing } from '../contract/accounts.ts'
import type { CatalogPackage, CatalogPackageUpdate } from '../contract/admin-catalog.ts'
import { contentLanguages, type PerLanguage } from '../contract/languages.ts'
import type { Database } from '../db/open-database.ts'
import { RelayError } from '../http/relay-error.ts'
import { recordAudit, type Operator } from '../audit/audit-log.ts'
import { inTransaction } from '../points/locks.ts'
import { createPackage, findPackageByCode, packageNames, type NewPackage, type PackageRow } from './packages.ts'

const termFields = ['points_limit', 'hour_points', 'validity_days', 'price'] as const

function descriptions(row: PackageRow): PerLanguage {
  return Object.fromEntries(contentLanguages.map((lang) => [lang, row[`description_${lang}`] ?? ''])) as PerLanguage
}

/** The fields an operator edits, for the audit log's before and after. */
function snapshot(row: PackageRow) {
  return { name: packageNames(row), description: descriptions(row), ...Object.fromEntries(termFields.map((field) => [field, row[field]])) }
}

/** Packages, personal first, with how many subscriptions and redeem codes refer to each; no `listing`: all but the archived. */
export async function listCatalogPackages(db: Database, listing?: PackageListing): Promise<CatalogPackage[]> {
  const rows = await db
    .selectFrom('packages')
    .selectAll('packages')
    .$if(listing === undefined, (qb) => qb.where('listing', '!=', 'archived'))
    .$if(listing !== undefined, (qb) => qb.where('listing', '=', listing!))
    .select((eb) => [
      eb.selectFrom('subscriptions').select((s) => s.fn.countAll<number | string>().as('n')).whereRef('subscriptions.package_id', '=', 'packages.id').as('subscriptions'),
      eb.selectFrom('redeem_codes').select((c) => c.fn.countAll<number | string>().as('n')).whereRef('redeem_codes.package_id', '=', 'packages.id').as('redeem_codes'),
    ])
    .orderBy('kind', 'asc')
    .orderBy('code', 'asc')
    .execute()
  return rows.map((row) => toCatalogPackage(row, Number(row.subscriptions), Number(row.redeem_codes)))
}

function toCatalogPackage(row: PackageRow, subscriptions: number, redeemCodes: number): CatalogPackage {
  const { id, code, kind, points_limit, hour_points, validity_days, price, listing, create_timestamp } = row
  return { id, code, kind, name: packageNames(row), description: descriptions(row), points_limit, hour_points, validity_days, price, listing, create_timestamp, subscriptions, redeem_codes: redeemCodes }
}

/** A taken code is a 409 `conflict`; bad input an Error saying what is wrong. */
export async function createPackageAsOperator(db: Database, operator: Operator, input: NewPackage, now: number): Promise<CatalogPackage> {
  return inTransaction(db, async (trx) => {
    const row = await createPackage(trx, now, input)
    await recordAudit(trx, operator, { action: 'package.create', target: { kind: 'package', ref: row.code }, after: { kind: row.kind, ...snapshot(row) } }, now)
    return toCatalogPackage(row, 0, 0)
  })
}

/** A package named by its id (console) or its code (CLI). */
export type PackageReference = { id: string } | { code: string }

/**
 * Lists, unlists or archives a package. Only the offer changes: subscriptions read their
 * package's terms, and codes already printed still redeem.
 */
export async function setPackageListingAsOperator(db: Database, operator: Operator, change: { package: PackageReference; listing: PackageListing; now: number }): Promise<CatalogPackage> {
  return inTransaction(db, async (trx) => {
    const reference = change.package
    const row = 'id' in reference ? await trx.selectFrom('packages').selectAll().where('id', '=', reference.id).executeTakeFirst() : await findPackageByCode(trx, reference.code)
    if (!row) throw new RelayError('not_found', `no package ${'id' in reference ? reference.id : reference.code}`)
    if (row.listing !== change.listing) {
      await trx.updateTable('packages').set({ listing: change.listing }).where('id', '=', row.id).execute()
      await recordAudit(trx, operator, { action: 'package.listing', target: { kind: 'package', ref: row.code }, before: { listing: row.listing }, after: { listing: change.listing } }, change.now)
    }
    const [subscriptions, codes] = await usesOf(trx, row.id)
    return toCatalogPackage({ ...row, listing: change.listing }, subscriptions, codes)
  })
}

async function usesOf(db: Database, packageId: string): Promise<[subscriptions: number, codes: number]> {
  const [subscriptions, codes] = await Promise.all([
    db.selectFrom('subscriptions').select((eb) => eb.fn.countAll<number | string>().as('n')).where('package_id', '=', packageId).executeTakeFirstOrThrow(),
    db.selectFrom('redeem_codes').select((eb) => eb.fn.countAll<number | string>().as('n')).where('package_id', '=', packageId).executeTakeFirstOrThrow(),
  ])
  return [Number(subscriptions.n), Number(codes.n)]
}

export async function updatePackageAsOperator(db: Database, operator: Operator, change: { id: string; package: CatalogPackageUpdate; now: number }): Promise<CatalogPackage> {
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('packages').selectAll().where('id', '=', change.id).executeTakeFirst()
    if (!row) throw new RelayError('not_found', 'no such package')
    const [subscriptions, codes] = await usesOf(trx, row.id)
    const inUse = subscriptions + codes > 0
    const { name, description } = change.package
    if (inUse && termFields.some((field) => change.package[field] !== row[field])) {
      throw new RelayError('business_rule', `${row.code} has subscriptions or redeem codes: its terms are fixed, create a new package for a new offer`)
    }
    const next: PackageRow = {
      ...row,
      ...Object.fromEntries(termFields.map((field) => [field, change.package[field]])),
      ...Object.fromEntries(contentLanguages.flatMap((lang) => [[`name_${lang}`, name[lang]], [`description_${lang}`, description[lang] || null]])),
    }
    await trx.updateTable('packages').set(next).where('id', '=', row.id).execute()
    await recordAudit(trx, operator, { action: 'package.update', target: { kind: 'package', ref: row.code }, before: snapshot(row), after: snapshot(next) }, change.now)
    return toCatalogPackage(next, subscriptions, codes)
  })
}
