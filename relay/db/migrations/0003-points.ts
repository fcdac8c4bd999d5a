import { sql, type Kysely } from 'kysely'
import { newId } from '../ids.ts'

/**
 * Packages, subscriptions, teams, redeem codes, the points ledger and model costs
 * (relay/points, relay/subscriptions, relay/teams; docs/architecture.md §6). Seeds the default packages and
 * model costs once, so a fresh database can be tried after creating one redeem code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('packages')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('code', 'varchar(32)', (col) => col.notNull().unique())
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('points_limit', 'integer', (col) => col.notNull())
    .addColumn('hour_points', 'integer', (col) => col.notNull())
    .addColumn('validity_days', 'integer', (col) => col.notNull())
    .addColumn('price', 'integer', (col) => col.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('teams')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    .addColumn('owner_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('secret', 'varchar(64)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()

  // The primary key on user_id is what makes a user's membership unique under any concurrency.
  await db.schema
    .createTable('team_members')
    .addColumn('user_id', 'bigint', (col) => col.primaryKey().references('users.id'))
    .addColumn('team_id', 'bigint', (col) => col.notNull().references('teams.id'))
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('team_members_team').on('team_members').column('team_id').execute()

  // A personal subscription has user_id, a team's has team_id.
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.references('users.id'))
    .addColumn('team_id', 'bigint', (col) => col.references('teams.id'))
    .addColumn('package_id', 'bigint', (col) => col.notNull().references('packages.id'))
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('start_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('end_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('ended_timestamp', 'bigint')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addCheckConstraint('subscriptions_one_holder', sql`(user_id is null) <> (team_id is null)`)
    .execute()
  // At most one subscription in force per user and per team, even if a lock were ever missed.
  await db.schema
    .createIndex('subscriptions_user_in_force')
    .unique()
    .on('subscriptions')
    .column('user_id')
    .where(sql.ref('status'), '=', 'normal')
    .execute()
  await db.schema
    .createIndex('subscriptions_team_in_force')
    .unique()
    .on('subscriptions')
    .column('team_id')
    .where(sql.ref('status'), '=', 'normal')
    .execute()
  await db.schema.createIndex('subscriptions_user').on('subscriptions').column('user_id').execute()
  await db.schema.createIndex('subscriptions_team').on('subscriptions').column('team_id').execute()

  await db.schema
    .createTable('subscription_events')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('subscription_id', 'bigint', (col) => col.notNull().references('subscriptions.id'))
    .addColumn('action', 'varchar(16)', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('subscription_events_user').on('subscription_events').columns(['user_id', 'id']).execute()

  // One account per personal subscription (subscription_id) or per team (team_id).
  await db.schema
    .createTable('points_accounts')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('subscription_id', 'bigint', (col) => col.unique().references('subscriptions.id'))
    .addColumn('team_id', 'bigint', (col) => col.unique().references('teams.id'))
    .addColumn('balance', 'integer', (col) => col.notNull())
    .addColumn('frozen', 'integer', (col) => col.notNull())
    .addColumn('last_refill_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addCheckConstraint('points_accounts_balance_not_negative', sql`balance >= 0 and frozen >= 0`)
    .addCheckConstraint('points_accounts_one_owner', sql`(subscription_id is null) <> (team_id is null)`)
    .execute()

  await db.schema
    .createTable('points_holds')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('account_id', 'bigint', (col) => col.notNull().references('points_accounts.id'))
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('model', 'varchar(128)')
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('settled_timestamp', 'bigint')
    .execute()
  await db.schema.createIndex('points_holds_account').on('points_holds').column('account_id').execute()

  await db.schema
    .createTable('points_ledger')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('account_id', 'bigint', (col) => col.notNull().references('points_accounts.id'))
    // Who caused the change; null for pool-wide rows (refills, expiry) of a team account.
    .addColumn('user_id', 'bigint', (col) => col.references('users.id'))
    .addColumn('type', 'varchar(16)', (col) => col.notNull())
    .addColumn('change', 'integer', (col) => col.notNull())
    .addColumn('balance_after', 'integer', (col) => col.notNull())
    .addColumn('model', 'varchar(128)')
    .addColumn('reason', 'varchar(255)')
    .addColumn('hold_id', 'bigint', (col) => col.references('points_holds.id'))
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('points_ledger_account').on('points_ledger').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('points_ledger_user').on('points_ledger').columns(['user_id', 'create_timestamp']).execute()

  // Only a hash of each code is kept (docs/architecture.md §8); the operator sees the codes once, when made.
  await db.schema
    .createTable('redeem_codes')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('package_id', 'bigint', (col) => col.notNull().references('packages.id'))
    .addColumn('expires_timestamp', 'bigint')
    .addColumn('used_by', 'bigint', (col) => col.references('users.id'))
    .addColumn('used_timestamp', 'bigint')
    .addColumn('subscription_id', 'bigint', (col) => col.references('subscriptions.id'))
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('redeem_codes_used_by').on('redeem_codes').column('used_by').execute()

  // Resets actually applied, for the cooldown of automatic approval.
  await db.schema
    .createTable('points_resets')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('ticket_id', 'bigint', (col) => col.notNull().unique())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('automatic', 'integer', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('points_resets_user').on('points_resets').columns(['user_id', 'create_timestamp']).execute()

  await db.schema
    .createTable('model_costs')
    .addColumn('model', 'varchar(128)', (col) => col.primaryKey())
    .addColumn('kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('points_per_call', 'integer')
    .addColumn('input_points_per_mtok', 'integer')
    .addColumn('output_points_per_mtok', 'integer')
    .addColumn('cache_read_points_per_mtok', 'integer')
    .addColumn('cache_write_points_per_mtok', 'integer')
    .addColumn('description', 'varchar(255)')
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .execute()

  // Typed here: migrations see the schema as it was when written, not today's `Tables`.
  interface SeedTables {
    packages: (typeof defaultPackages)[number] & { id: string; create_timestamp: number }
    model_costs: (typeof defaultModelCosts)[number] & { update_timestamp: number }
  }
  // Wall time: migrations run before any clock is injected, and nothing depends on these values.
  const now = Date.now()
  await (db as Kysely<SeedTables>)
    .insertInto('packages')
    .values(defaultPackages.map((p) => ({ id: newId(), ...p, create_timestamp: now })))
    .execute()
  await (db as Kysely<SeedTables>)
    .insertInto('model_costs')
    .values(defaultModelCosts.map((c) => ({ ...c, update_timestamp: now })))
    .execute()
}

/*
 * The seeds live here, not in relay/points, so that this migration stays what it was when it
 * shipped. Scale (docs/decisions/020-points-ledger.md): 1 point is about 1 US cent of upstream list price; prices
 * are in fen (CNY minor units).
 */
const defaultPackages = [
  {
    code: 'PERSONAL',
    name: '个人版 Personal',
    kind: 'personal',
    points_limit: 2400,
    hour_points: 100,
    validity_days: 30,
    price: 9900,
    description: '个人开发者，每小时补充 100 积分 · For one developer, 100 points every hour',
  },
  {
    code: 'TEAM',
    name: '团队版 Team',
    kind: 'team',
    points_limit: 12000,
    hour_points: 500,
    validity_days: 30,
    price: 49900,
    description: '团队共享积分池，每小时补充 500 积分 · A shared pool for a team, 500 points every hour',
  },
]

const claude = (model: string, input: number, output: number, description: string) => ({
  model,
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  // Anthropic bills cache reads at a tenth of input and 5-minute cache writes at 1.25 times.
  cache_read_points_per_mtok: input / 10,
  cache_write_points_per_mtok: (input * 5) / 4,
  description,
})
const openai = (model: string, input: number, output: number, cacheRead: number, description: string) => ({
  model,
  kind: 'variable',
  points_per_call: null,
  input_points_per_mtok: input,
  output_points_per_mtok: output,
  cache_read_points_per_mtok: cacheRead,
  cache_write_points_per_mtok: null,
  description,
})

const defaultModelCosts = [
  claude('claude-opus-4-1', 1500, 7500, 'Claude Opus 4.1'),
  claude('claude-opus-4-1-20250805', 1500, 7500, 'Claude Opus 4.1'),
  claude('claude-opus-4', 1500, 7500, 'Claude Opus 4'),
  claude('claude-opus-4-0', 1500, 7500, 'Claude Opus 4'),
  claude('claude-sonnet-4-5', 300, 1500, 'Claude Sonnet 4.5'),
  claude('claude-sonnet-4-5-20250929', 300, 1500, 'Claude Sonnet 4.5'),
  claude('claude-sonnet-4', 300, 1500, 'Claude Sonnet 4'),
  claude('claude-sonnet-4-0', 300, 1500, 'Claude Sonnet 4'),
  claude('claude-haiku-4-5', 100, 500, 'Claude Haiku 4.5'),
  claude('claude-haiku-4-5-20251001', 100, 500, 'Claude Haiku 4.5'),
  openai('gpt-4.1', 200, 800, 50, 'GPT-4.1'),
  openai('gpt-4o', 250, 1000, 125, 'GPT-4o'),
  openai('o3-mini', 110, 440, 55, 'o3-mini'),
  {
    model: 'gpt-4o-mini',
    kind: 'fixed',
    points_per_call: 1,
    input_points_per_mtok: null,
    output_points_per_mtok: null,
    cache_read_points_per_mtok: null,
    cache_write_points_per_mtok: null,
    description: 'GPT-4o mini',
  },
]
