import type { Kysely } from 'kysely'

/**
 * Texts in every language instead of one mixed string (docs/decisions/006-texts-and-languages.md): a package's name and
 * description per language, and the kind of ticket the relay opens itself, so its title is
 * written in the reader's language when it is read.
 *
 * Converts what is there: the packages 0003 seeded get their names and descriptions in Chinese,
 * English and Japanese; any other package keeps its one name (and description) in every language,
 * as nothing says which language it is in. The points-reset tickets, titled and labelled in two
 * languages at once, become `system_kind` `points_reset` with their reason in `reset_reason`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema
  for (const language of languages) {
    await schema
      .alterTable('packages')
      .addColumn(`name_${language}`, 'varchar(64)', (col) => col.notNull().defaultTo(''))
      .execute()
    await schema.alterTable('packages').addColumn(`description_${language}`, 'varchar(500)').execute()
  }
  await schema.alterTable('tickets').addColumn('system_kind', 'varchar(32)').execute()
  await schema.alterTable('tickets').addColumn('reset_reason', 'varchar(32)').execute()

  const trx = db as Kysely<Tables>
  for (const pkg of await trx.selectFrom('packages').select(['id', 'name', 'description']).execute()) {
    const seed = seeded[pkg.name]
    const texts = seed?.description === pkg.description ? seed : {
      names: { zh: pkg.name, en: pkg.name, ja: pkg.name },
      descriptions: { zh: pkg.description, en: pkg.description, ja: pkg.description },
    }
    const values: Record<string, string | null> = {}
    for (const language of languages) {
      values[`name_${language}`] = texts.names[language]
      values[`description_${language}`] = texts.descriptions[language]
    }
    await trx.updateTable('packages').set(values).where('id', '=', pkg.id).execute()
  }
  await schema.alterTable('packages').dropColumn('name').execute()
  await schema.alterTable('packages').dropColumn('description').execute()

  const resets = await trx
    .selectFrom('tickets')
    .select(['id', 'content'])
    .where('type', '=', 'pointsReset')
    .where('title', '=', '积分重置申请 / Points reset request')
    .execute()
  for (const ticket of resets) {
    const reason = Object.entries(reasonLabels).find(([, label]) => ticket.content.startsWith(`${label}\n\n`))?.[0] ?? null
    await trx
      .updateTable('tickets')
      .set({
        system_kind: 'points_reset',
        reset_reason: reason,
        title: 'Points reset request',
        content: reason ? ticket.content.slice(reasonLabels[reason]!.length + 2) : ticket.content,
      })
      .where('id', '=', ticket.id)
      .execute()
  }
}

// What this migration saw and wrote, as it was when written (not today's `Tables`).
const languages = ['zh', 'en', 'ja'] as const
type Language = (typeof languages)[number]
interface Tables {
  packages: { id: string; name: string; description: string | null } & Record<string, string | null>
  tickets: { id: string; type: string; title: string; content: string; system_kind: string | null; reset_reason: string | null }
}

const seeded: Record<string, { description: string; names: Record<Language, string>; descriptions: Record<Language, string> }> = {
  '个人版 Personal': {
    description: '个人开发者，每小时补充 100 积分 · For one developer, 100 points every hour',
    names: { zh: '个人版', en: 'Personal', ja: 'パーソナル' },
    descriptions: {
      zh: '个人开发者，每小时补充 100 积分',
      en: 'For one developer, 100 points every hour',
      ja: '個人の開発者向け、毎時 100 ポイント補充',
    },
  },
  '团队版 Team': {
    description: '团队共享积分池，每小时补充 500 积分 · A shared pool for a team, 500 points every hour',
    names: { zh: '团队版', en: 'Team', ja: 'チーム' },
    descriptions: {
      zh: '团队共享积分池，每小时补充 500 积分',
      en: 'A shared pool for a team, 500 points every hour',
      ja: 'チームで共有するポイント、毎時 500 ポイント補充',
    },
  },
}

/** The labels relay/points/reset.ts wrote before the reason had a column of its own. */
const reasonLabels: Record<string, string> = {
  account_abnormal: '账户异常 / Account abnormal',
  misoperation: '误操作消耗 / Misoperation consumption',
  service_quality: '服务质量问题 / Service quality problem',
  technical_fault: '技术故障 / Technical fault',
  other: '其他 / Other',
}
