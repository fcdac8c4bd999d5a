/**
 * What an alert says, in the webhook's language: a title and a line of figures. Rendered when
 * sent, from the incident's details (alerts/incidents.ts), like the mails (notifications/texts.ts).
 */
import { brandName } from '../contract/brand.ts'
import type { AlertEvent, AlertPhase } from '../contract/alerts.ts'
import type { ContentLanguage } from '../contract/languages.ts'

/** The figures each event's messages quote. */
export interface AlertDetails {
  circuit_open: { provider: string }
  model_unserved: { models: string[] }
  provider_errors: { provider: string; failed: number; calls: number; minutes: number; threshold_percent: number }
  settlements_lagging: { instance: string; waiting: number; threshold: number }
  database_unreachable: { instance: string; error: string }
  points_liability: { points: number; threshold: number }
  test: { webhook: string }
}

export interface AlertMessage {
  title: string
  text: string
}

/** `a, b, c` and how many more past the tenth. */
const listed = (names: string[], more: (count: number) => string) => names.slice(0, 10).join(', ') + (names.length > 10 ? more(names.length - 10) : '')

/** `2026-11-29 22:05:10 UTC`. */
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)

type Texts = { [E in AlertEvent]: (details: AlertDetails[E], resolved: boolean) => AlertMessage }

const texts: Record<ContentLanguage, Texts> = {
  zh: {
    circuit_open: ({ provider }, resolved) =>
      resolved ? { title: `已恢复：供应商 ${provider} 熔断已关闭`, text: '调用重新发往该供应商。' } : { title: `供应商 ${provider} 熔断已打开`, text: '连续失败，调用暂时跳过该供应商。' },
    model_unserved: ({ models }, resolved) =>
      resolved
        ? { title: '已恢复：模型重新有可用供应商', text: `调用恢复转发：${listed(models, (n) => ` 等另外 ${n} 个`)}` }
        : { title: `${models.length} 个模型没有可用供应商`, text: `服务这些模型的供应商熔断全部打开，调用会失败：${listed(models, (n) => ` 等另外 ${n} 个`)}` },
    provider_errors: (d, resolved) =>
      resolved
        ? { title: `已恢复：供应商 ${d.provider} 错误率回落`, text: `近 ${d.minutes} 分钟错误率低于 ${d.threshold_percent}%。` }
        : { title: `供应商 ${d.provider} 错误率过高`, text: `近 ${d.minutes} 分钟 ${d.calls} 次调用中失败 ${d.failed} 次（${percent(d.failed, d.calls)}%，阈值 ${d.threshold_percent}%）。` },
    settlements_lagging: (d, resolved) =>
      resolved ? { title: `已恢复：${d.instance} 结算已跟上`, text: '等待结算的调用已回落。' } : { title: `${d.instance} 结算滞后`, text: `${d.waiting} 次调用等待结算（阈值 ${d.threshold}）。` },
    database_unreachable: (d, resolved) =>
      resolved ? { title: `已恢复：${d.instance} 数据库可访问`, text: '数据库重新可用。' } : { title: `${d.instance} 无法访问数据库`, text: d.error },
    points_liability: (d, resolved) =>
      resolved ? { title: '已恢复：未用积分回落到阈值以下', text: `未用积分 ${d.points}，阈值 ${d.threshold}。` } : { title: '未用积分超过阈值', text: `所有账户共有未用积分 ${d.points}，阈值 ${d.threshold}。` },
    test: ({ webhook }) => ({ title: `${brandName.zh} 测试告警`, text: `Webhook「${webhook}」可以收到告警。` }),
  },
  en: {
    circuit_open: ({ provider }, resolved) =>
      resolved ? { title: `Recovered: provider ${provider} circuit closed`, text: 'Calls go to this provider again.' } : { title: `Provider ${provider} circuit open`, text: 'It failed repeatedly; calls skip it for now.' },
    model_unserved: ({ models }, resolved) =>
      resolved
        ? { title: 'Recovered: models have a healthy provider again', text: `Calls are forwarded again: ${listed(models, (n) => ` and ${n} more`)}` }
        : { title: `${models.length === 1 ? '1 model has' : `${models.length} models have`} no healthy provider`, text: `Every provider serving them has its circuit open, so their calls fail: ${listed(models, (n) => ` and ${n} more`)}` },
    provider_errors: (d, resolved) =>
      resolved
        ? { title: `Recovered: provider ${d.provider} error rate back down`, text: `Below ${d.threshold_percent}% over the last ${d.minutes} minutes.` }
        : { title: `Provider ${d.provider} error rate high`, text: `${d.failed} of ${d.calls} calls failed in the last ${d.minutes} minutes (${percent(d.failed, d.calls)}%, threshold ${d.threshold_percent}%).` },
    settlements_lagging: (d, resolved) =>
      resolved ? { title: `Recovered: ${d.instance} settlements caught up`, text: 'The calls waiting to be charged are back down.' } : { title: `${d.instance} settlements lagging`, text: `${d.waiting} calls are waiting to be charged (threshold ${d.threshold}).` },
    database_unreachable: (d, resolved) =>
      resolved ? { title: `Recovered: ${d.instance} reaches its database`, text: 'The database answers again.' } : { title: `${d.instance} cannot reach its database`, text: d.error },
    points_liability: (d, resolved) =>
      resolved ? { title: 'Recovered: points outstanding below the threshold', text: `${d.points} points outstanding, threshold ${d.threshold}.` } : { title: 'Points outstanding above the threshold', text: `All accounts hold ${d.points} unused points, threshold ${d.threshold}.` },
    test: ({ webhook }) => ({ title: `${brandName.en} test alert`, text: `Webhook "${webhook}" receives alerts.` }),
  },
  ja: {
    circuit_open: ({ provider }, resolved) =>
      resolved ? { title: `復旧：プロバイダー ${provider} のサーキットが閉じました`, text: '呼び出しは再びこのプロバイダーへ送られます。' } : { title: `プロバイダー ${provider} のサーキットが開きました`, text: '失敗が続いたため、呼び出しは一時的にこのプロバイダーを避けます。' },
    model_unserved: ({ models }, resolved) =>
      resolved
        ? { title: '復旧：モデルに正常なプロバイダーが戻りました', text: `呼び出しは再び転送されます：${listed(models, (n) => ` ほか ${n} 件`)}` }
        : { title: `${models.length} 件のモデルに正常なプロバイダーがありません`, text: `提供するすべてのプロバイダーのサーキットが開いており、呼び出しは失敗します：${listed(models, (n) => ` ほか ${n} 件`)}` },
    provider_errors: (d, resolved) =>
      resolved
        ? { title: `復旧：プロバイダー ${d.provider} のエラー率が下がりました`, text: `直近 ${d.minutes} 分で ${d.threshold_percent}% 未満です。` }
        : { title: `プロバイダー ${d.provider} のエラー率が高い`, text: `直近 ${d.minutes} 分の ${d.calls} 回の呼び出しのうち ${d.failed} 回が失敗しました（${percent(d.failed, d.calls)}%、しきい値 ${d.threshold_percent}%）。` },
    settlements_lagging: (d, resolved) =>
      resolved ? { title: `復旧：${d.instance} の精算が追いつきました`, text: '精算待ちの呼び出しが減りました。' } : { title: `${d.instance} の精算が遅れています`, text: `${d.waiting} 回の呼び出しが精算待ちです（しきい値 ${d.threshold}）。` },
    database_unreachable: (d, resolved) =>
      resolved ? { title: `復旧：${d.instance} がデータベースに接続できます`, text: 'データベースが再び応答しています。' } : { title: `${d.instance} がデータベースに接続できません`, text: d.error },
    points_liability: (d, resolved) =>
      resolved ? { title: '復旧：未使用ポイントがしきい値を下回りました', text: `未使用ポイント ${d.points}、しきい値 ${d.threshold}。` } : { title: '未使用ポイントがしきい値を超えました', text: `全アカウントの未使用ポイントは ${d.points}、しきい値 ${d.threshold}。` },
    test: ({ webhook }) => ({ title: `${brandName.ja} テストアラート`, text: `Webhook「${webhook}」はアラートを受け取れます。` }),
  },
}

const since: Record<ContentLanguage, (from: number, to: number | null) => string> = {
  zh: (from, to) => (to === null ? `开始于 ${utc(from)}` : `${utc(from)} 至 ${utc(to)}`),
  en: (from, to) => (to === null ? `Since ${utc(from)}` : `From ${utc(from)} to ${utc(to)}`),
  ja: (from, to) => (to === null ? `${utc(from)} から` : `${utc(from)} から ${utc(to)} まで`),
}

export function renderAlert<E extends AlertEvent>(
  event: E,
  phase: AlertPhase,
  details: AlertDetails[E],
  lang: ContentLanguage,
  times: { opened: number; resolved: number | null },
): AlertMessage {
  const message = (texts[lang][event] as Texts[E])(details, phase === 'resolved')
  if (phase === 'test') return message
  return { title: message.title, text: `${message.text}\n${since[lang](times.opened, phase === 'resolved' ? times.resolved : null)}` }
}
