/** Operator commands for packages and redeem codes. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { packageKinds, packageListings } from '../contract/accounts.ts'
import { isId } from '../contract/ids.ts'
import { contentLanguages, type PerLanguage } from '../contract/languages.ts'
import { createPackageAsOperator, listCatalogPackages, setPackageListingAsOperator } from './operator-packages.ts'
import { generateRedeemCodes, revokeRedeemCode } from './operator-codes.ts'
import { redeemBatchMax } from '../contract/admin.ts'
import { cliOperator } from '../audit/audit-log.ts'

const count = (max: number) => z.coerce.number().int().min(0).max(max)
const languageNames = { zh: 'Chinese', en: 'English', ja: 'Japanese' } as const

/** `--name-zh`, `--name-en`, `--name-ja`: each language's text, over `--<field>` for all of them. */
function perLanguageOptions<F extends string>(field: F, what: string) {
  return Object.fromEntries(
    contentLanguages.map((lang) => [`${field}-${lang}`, { description: `${what} in ${languageNames[lang]}`, schema: z.string().optional() }]),
  ) as Record<`${F}-${(typeof contentLanguages)[number]}`, { description: string; schema: z.ZodOptional<z.ZodString> }>
}

/** One text per language from `--<field>-<lang>`, each falling back to `--<field>`; undefined when none is given. */
function perLanguageValue(values: Readonly<Record<string, unknown>>, field: string): PerLanguage | undefined {
  const text = (key: string) => (typeof values[key] === 'string' ? values[key] : undefined)
  const texts = contentLanguages.map((lang) => text(`${field}-${lang}`) ?? text(field))
  if (texts.every((text) => text === undefined)) return undefined
  const missing = contentLanguages.filter((_, i) => texts[i] === undefined)
  if (missing.length > 0) {
    throw new Error(`--${field}: give ${missing.map((lang) => `--${field}-${lang}`).join(' and ')} too, or --${field} for every language`)
  }
  const [zh, en, ja] = texts as string[]
  return { zh: zh!, en: en!, ja: ja! }
}

export const subscriptionCommands: Command[] = [
  defineCommand({
    name: 'package create',
    summary: 'Create a package (its terms are fixed once a subscription or code refers to it: make a new one for a new offer)',
    options: {
      code: { description: 'unique code, 2–32 letters, digits, _ or - (stored upper-case)', schema: z.string() },
      name: { description: 'name users see, the same in every language (a brand name); or give the three below', schema: z.string().optional() },
      ...perLanguageOptions('name', 'name users see'),
      kind: { description: 'personal, team for a shared pool, or topup for points added to the personal plan in force', schema: z.enum(packageKinds) },
      'points-limit': { description: 'points on activation, and the cap of hourly refills', schema: count(100_000_000) },
      'hour-points': { description: 'points added every hour (default 100)', schema: count(100_000_000).optional() },
      'validity-days': { description: 'days it lasts (default 30)', schema: count(3650).optional() },
      price: { description: 'price in minor units (fen); 0 = free (default 0)', schema: count(100_000_000).optional() },
      description: { description: 'shown with the package, the same in every language; or give the three below', schema: z.string().optional() },
      ...perLanguageOptions('description', 'shown with the package'),
    },
    async run(values, { services, print }) {
      const name = perLanguageValue(values, 'name')
      if (!name) throw new Error('--name-zh, --name-en and --name-ja (or --name for every language): required')
      const pkg = await createPackageAsOperator(services.db, cliOperator(), {
        code: values.code,
        name,
        kind: values.kind,
        points_limit: values['points-limit'],
        hour_points: values['hour-points'],
        validity_days: values['validity-days'],
        price: values.price,
        description: perLanguageValue(values, 'description') ?? null,
      }, services.clock.now())
      print(`${pkg.code}  ${pkg.id}`)
    },
  }),

  defineCommand({
    name: 'package list',
    summary: 'Packages with their listing (archived ones only with --listing archived)',
    options: {
      listing: { description: 'only packages listed, unlisted or archived', schema: z.enum(packageListings).optional() },
    },
    async run(values, { services, print }) {
      print(['code'.padEnd(16), 'kind'.padEnd(8), 'listing'.padEnd(8), 'limit'.padStart(9), 'per hour'.padStart(9), 'days'.padStart(5), 'price'.padStart(9), '  name (zh / en / ja)'].join(' '))
      for (const p of await listCatalogPackages(services.db, values.listing)) {
        const columns = [p.code.padEnd(16), p.kind.padEnd(8), p.listing.padEnd(8), String(p.points_limit).padStart(9), String(p.hour_points).padStart(9)]
        print([...columns, String(p.validity_days).padStart(5), String(p.price).padStart(9), `  ${Object.values(p.name).join(' / ')}`].join(' '))
      }
    },
  }),

  defineCommand({
    name: 'package listing',
    summary: 'List, unlist or archive a package (unlisted and archived: off /pricing, no new codes; subscriptions and printed codes unaffected)',
    argument: { name: 'code', description: 'the package’s code' },
    options: {
      set: { description: 'listed, unlisted, or archived (also out of the console’s default list)', schema: z.enum(packageListings) },
    },
    async run(values, { services, print }) {
      const pkg = await setPackageListingAsOperator(services.db, cliOperator(), { package: { code: values.code }, listing: values.set, now: services.clock.now() })
      print(`${pkg.code}  ${pkg.listing}`)
    },
  }),

  defineCommand({
    name: 'codes create',
    summary: 'Print new single-use redeem codes for a personal package, one per line (shown only now)',
    options: {
      package: { description: 'package code', schema: z.string() },
      count: { description: `how many, 1–${redeemBatchMax}`, schema: count(redeemBatchMax) },
      'expires-days': { description: 'codes stop working after this many days (default never)', schema: count(3650).optional() },
    },
    async run(values, { services, print }) {
      const { codes } = await generateRedeemCodes(services.db, cliOperator(), {
        packageCode: values.package,
        count: values.count,
        expiresDays: values['expires-days'],
        now: services.clock.now(),
      })
      for (const code of codes) print(code)
    },
  }),

  defineCommand({
    name: 'codes revoke',
    summary: 'Revoke a redeem code nobody has used (its id, as the console lists it)',
    argument: { name: 'id', description: 'the code’s id' },
    options: {},
    async run({ id }, { services, print }) {
      if (!isId(id)) throw new Error('the id is a number')
      await revokeRedeemCode(services.db, cliOperator(), { id, now: services.clock.now() })
      print(`revoked ${id}`)
    },
  }),
]
