/**
 * The tickets the relay opens itself, written in the reader's language when they are read
 * (docs/decisions/006-texts-and-languages.md): the row keeps its kind (`system_kind`) and what was chosen (the reason of
 * a points reset), the title is this file's in the request's language, and the content the person's
 * own words after the reason's label.
 */
import type { ContentLanguage, PerLanguage } from '../contract/languages.ts'
import type { ResetReason } from '../contract/points.ts'
import type { SystemTicketKind, TicketsTable } from '../db/schema.ts'

export const systemTicketTitles: Record<SystemTicketKind, PerLanguage> = {
  points_reset: { zh: '积分重置申请', en: 'Points reset request', ja: 'ポイントリセットの申請' },
}

/** As the reset form (app/locales/…/points.ts `reset.reasons`) names them. */
export const resetReasonLabels: Record<ResetReason, PerLanguage> = {
  account_abnormal: { zh: '账户异常', en: 'Account abnormal', ja: 'アカウントの異常' },
  misoperation: { zh: '误操作消耗', en: 'Consumed by mistake', ja: '誤操作による消費' },
  service_quality: { zh: '服务质量问题', en: 'Service quality problem', ja: 'サービス品質の問題' },
  technical_fault: { zh: '技术故障', en: 'Technical fault', ja: '技術的な障害' },
  other: { zh: '其他', en: 'Other', ja: 'その他' },
}

type TextColumns = Pick<TicketsTable, 'title' | 'content' | 'system_kind' | 'reset_reason'>

/** The title as `lang`'s reader reads it: a person's own, or the relay's in their language. */
export function ticketTitle(row: TextColumns, lang: ContentLanguage): string {
  return row.system_kind ? systemTicketTitles[row.system_kind][lang] : row.title
}

/** The content as `lang`'s reader reads it: a reset request's reason, labelled in their language, then the person's words. */
export function ticketContent(row: TextColumns, lang: ContentLanguage): string {
  return row.reset_reason ? `${resetReasonLabels[row.reset_reason][lang]}\n\n${row.content}` : row.content
}
