/**
 * Packages: what a subscription grants. Operators create them (CLI or console); their terms never
 * change once a subscription or redeem code refers to them, so a subscription reads its package's
 * terms live and a redeem code always means what it meant when it was printed. A new offer is a
 * new package (operator-packages.ts, docs/decisions/115-operator-console.md).
 */
import type { Selectable } from 'kysely'
import { z } from 'zod'
import { packageKinds, type PackageKind } from '../contract/accounts.ts'
import { contentLanguages, type ContentLanguage, type PerLanguage } from '../contract/languages.ts'
import type { PackageInfo } from '../contract/subscriptions.ts'
import { newId } from '../db/ids.ts'
import { isUniqueViolation, type Database } from '../db/open-database.ts'
import type { PackagesTable } from '../db/schema.ts'
import { RelayError } from '../http/relay-error.ts'
import { maxPointsChange } from '../points/entries.ts'

export type PackageRow = Selectable<PackagesTable>

/** One text for every language (a brand name such as "Pro"), or one per language. */
function perLanguage<S extends z.ZodString>(text: S) {
  return z.union([
    text.transform((t): PerLanguage => ({ zh: t, en: t, ja: t })),
    z.object({ zh: text, en: text, ja: text }),
  ])
}

/** docs/product.md, Constants defaults: hour_points 100, validity_days 30. */
export const newPackageSchema = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{2,32}$/, 'code: 2–32 letters, digits, _ or -'),
  /** What users see, in their language (docs/decisions/006-texts-and-languages.md). */
  name: perLanguage(z.string().trim().min(1).max(64)),
  kind: z.enum(packageKinds),
  points_limit: z.int().min(1).max(maxPointsChange),
  hour_points: z.int().min(0).max(maxPointsChange).default(100),
  validity_days: z.int().min(1).max(3650).default(30),
  price: z.int().min(0).max(100_000_000).default(0),
  description: perLanguage(z.string().trim().max(500)).nullable().default(null),
})
export type NewPackage = z.input<typeof newPackageSchema>

/** Bad input throws an Error saying what is wrong, a taken code a 409 `conflict`. */
export async function createPackage(db: Database, now: number, input: NewPackage): Promise<PackageRow> {
  const parsed = newPackageSchema.safeParse(input)
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error))
  const { name, description, ...terms } = parsed.data
  const row: PackageRow = {
    id: newId(),
    ...terms,
    name_zh: name.zh,
    name_en: name.en,
    name_ja: name.ja,
    description_zh: description?.zh || null,
    description_en: description?.en || null,
    description_ja: description?.ja || null,
    listing: 'listed',
    create_timestamp: now,
  }
  try {
    await db.insertInto('packages').values(row).execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new RelayError('conflict', `a package with code ${row.code} exists`)
    throw error
  }
  return row
}

/** The packages on offer: listed ones (operator-packages.ts lists every one). */
export function listPackages(db: Database, kind?: PackageKind): Promise<PackageRow[]> {
  return db
    .selectFrom('packages')
    .selectAll()
    .where('listing', '=', 'listed')
    .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind!))
    .orderBy('kind')
    .orderBy('code')
    .execute()
}

export function findPackageByCode(db: Database, code: string): Promise<PackageRow | undefined> {
  return db.selectFrom('packages').selectAll().where('code', '=', code.trim().toUpperCase()).executeTakeFirst()
}

/** The package's name in `lang`. */
export function packageName(row: PackageRow, lang: ContentLanguage): string {
  return row[`name_${lang}`]
}

/** The package's description in `lang`; null when it has none. */
export function packageDescription(row: PackageRow, lang: ContentLanguage): string | null {
  return row[`description_${lang}`]
}

/** Every language's name, for the operator. */
export function packageNames(row: PackageRow): PerLanguage {
  return Object.fromEntries(contentLanguages.map((lang) => [lang, packageName(row, lang)])) as PerLanguage
}

/** The package as the user reads it, in their language. */
export function toPackageInfo(row: PackageRow, lang: ContentLanguage): PackageInfo {
  return {
    id: row.id,
    code: row.code,
    name: packageName(row, lang),
    kind: row.kind,
    points_limit: row.points_limit,
    hour_points: row.hour_points,
    validity_days: row.validity_days,
    price: row.price,
    description: packageDescription(row, lang),
  }
}
