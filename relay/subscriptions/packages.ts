/**
 * Packages: what a subscription grants. Operators create them (CLI); they never change once made,
 * so a subscription reads its package's terms live and a redeem code always means what it meant
 * when it was printed. A new offer is a new package.
 */
import type { Selectable } from 'kysely'
import { z } from 'zod'
import { packageKinds, type PackageKind } from '../contract/accounts.ts'
import type { PackageInfo } from '../contract/points.ts'
import { newId } from '../db/ids.ts'
import { isUniqueViolation, type Database } from '../db/open-database.ts'
import type { PackagesTable } from '../db/schema.ts'
import { maxPointsChange } from '../points/entries.ts'

export type PackageRow = Selectable<PackagesTable>

/** Spec §9 defaults: hour_points 100, validity_days 30. */
export const newPackageSchema = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{2,32}$/, 'code: 2–32 letters, digits, _ or -'),
  name: z.string().trim().min(1).max(64),
  kind: z.enum(packageKinds),
  points_limit: z.int().min(1).max(maxPointsChange),
  hour_points: z.int().min(0).max(maxPointsChange).default(100),
  validity_days: z.int().min(1).max(3650).default(30),
  price: z.int().min(0).max(100_000_000).default(0),
  description: z.string().trim().max(500).nullable().default(null),
})
export type NewPackage = z.input<typeof newPackageSchema>

/** Bad input or a taken code throws an Error saying what is wrong. */
export async function createPackage(db: Database, now: number, input: NewPackage): Promise<PackageRow> {
  const parsed = newPackageSchema.safeParse(input)
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error))
  const row: PackageRow = { id: newId(), ...parsed.data, create_timestamp: now }
  try {
    await db.insertInto('packages').values(row).execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new Error(`a package with code ${row.code} exists`)
    throw error
  }
  return row
}

export function listPackages(db: Database, kind?: PackageKind): Promise<PackageRow[]> {
  return db
    .selectFrom('packages')
    .selectAll()
    .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind!))
    .orderBy('kind')
    .orderBy('code')
    .execute()
}

export function findPackageByCode(db: Database, code: string): Promise<PackageRow | undefined> {
  return db.selectFrom('packages').selectAll().where('code', '=', code.trim().toUpperCase()).executeTakeFirst()
}

export function toPackageInfo(row: PackageRow): PackageInfo {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind,
    points_limit: row.points_limit,
    hour_points: row.hour_points,
    validity_days: row.validity_days,
    price: row.price,
    description: row.description,
  }
}
