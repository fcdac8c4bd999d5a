/** Operator commands for packages and redeem codes. */
import { z } from 'zod'
import { defineCommand, type Command } from '../cli-registry.ts'
import { packageKinds } from '../contract/accounts.ts'
import { createPackage, listPackages } from './packages.ts'
import { createRedeemCodes, maxCodesPerBatch } from './redeem-codes.ts'

const count = (max: number) => z.coerce.number().int().min(0).max(max)

export const subscriptionCommands: Command[] = [
  defineCommand({
    name: 'package create',
    summary: 'Create a package (packages never change afterwards: make a new one for a new offer)',
    options: {
      code: { description: 'unique code, 2–32 letters, digits, _ or - (stored upper-case)', schema: z.string() },
      name: { description: 'name users see', schema: z.string() },
      kind: { description: 'personal, or team for a shared pool', schema: z.enum(packageKinds) },
      'points-limit': { description: 'points on activation, and the cap of hourly refills', schema: count(100_000_000) },
      'hour-points': { description: 'points added every hour (default 100)', schema: count(100_000_000).optional() },
      'validity-days': { description: 'days it lasts (default 30)', schema: count(3650).optional() },
      price: { description: 'price in minor units (fen); 0 = free (default 0)', schema: count(100_000_000).optional() },
      description: { description: 'shown with the package', schema: z.string().optional() },
    },
    async run(values, { services, print }) {
      const pkg = await createPackage(services.db, services.clock.now(), {
        code: values.code,
        name: values.name,
        kind: values.kind,
        points_limit: values['points-limit'],
        hour_points: values['hour-points'],
        validity_days: values['validity-days'],
        price: values.price,
        description: values.description ?? null,
      })
      print(`${pkg.code}  ${pkg.id}`)
    },
  }),

  defineCommand({
    name: 'package list',
    summary: 'Every package',
    options: {},
    async run(_values, { services, print }) {
      print(['code'.padEnd(16), 'kind'.padEnd(8), 'limit'.padStart(9), 'per hour'.padStart(9), 'days'.padStart(5), 'price'.padStart(9), '  name'].join(' '))
      for (const p of await listPackages(services.db)) {
        const columns = [p.code.padEnd(16), p.kind.padEnd(8), String(p.points_limit).padStart(9), String(p.hour_points).padStart(9)]
        print([...columns, String(p.validity_days).padStart(5), String(p.price).padStart(9), `  ${p.name}`].join(' '))
      }
    },
  }),

  defineCommand({
    name: 'codes create',
    summary: 'Print new single-use redeem codes for a personal package, one per line (shown only now)',
    options: {
      package: { description: 'package code', schema: z.string() },
      count: { description: `how many, 1–${maxCodesPerBatch}`, schema: count(maxCodesPerBatch) },
      'expires-days': { description: 'codes stop working after this many days (default never)', schema: count(3650).optional() },
    },
    async run(values, { services, print }) {
      const { codes } = await createRedeemCodes(services.db, services.clock.now(), {
        packageCode: values.package,
        count: values.count,
        expiresDays: values['expires-days'],
      })
      for (const code of codes) print(code)
    },
  }),
]
