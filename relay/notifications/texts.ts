/**
 * The notification mails in zh, en and ja: a subject, a text part and the same as HTML, each with
 * a link to the page concerned and one that turns this kind of mail off (no sign-in needed), laid
 * out as every mail is (mail/layout.ts).
 */
import type { ContentLanguage, PerLanguage } from '../contract/languages.ts'
import type { NotificationEvent } from '../contract/notifications.ts'
import { brandName } from '../contract/brand.ts'
import { deviceName } from '../contract/device-name.ts'
import { layOutMail, mailNumber, mailTime, type RenderedMail } from '../mail/layout.ts'

export interface NotificationPayload {
  balance_low: { balance: number; threshold: number }
  package_expiring: { package: PerLanguage; ends_at: number }
  package_expired: { package: PerLanguage; ended_at: number }
  ticket_reply: { ticket_id: string; number: string; title: string }
  new_sign_in: { at: number; ip: string; user_agent: string }
}

interface Links {
  publicUrl: string
  unsubscribeUrl: string
}

interface Content {
  subject: string
  /** Paragraphs. */
  lines: string[]
  action: { label: string; path: string }
}

type Renderers = { [E in NotificationEvent]: (payload: NotificationPayload[E], lang: ContentLanguage) => Content }

const renderers: Renderers = {
  balance_low: (payload, lang) => {
    const balance = mailNumber(payload.balance, lang)
    const threshold = mailNumber(payload.threshold, lang)
    return {
      zh: { subject: `积分余额低于 ${threshold}`, lines: [`您的积分余额为 ${balance}，低于您设置的提醒阈值 ${threshold}。`, '如需继续使用，请兑换套餐或等待每小时的积分恢复。'], action: { label: '查看积分', path: '/points' } },
      en: { subject: `Your points balance is below ${threshold}`, lines: [`Your points balance is ${balance}, below the ${threshold} you asked to be told about.`, 'Redeem a package or wait for the hourly refill to keep going.'], action: { label: 'See your points', path: '/points' } },
      ja: { subject: `ポイント残高が ${threshold} を下回りました`, lines: [`ポイント残高は ${balance} で、設定した通知のしきい値 ${threshold} を下回っています。`, '引き続きご利用いただくには、パッケージを引き換えるか毎時の回復をお待ちください。'], action: { label: 'ポイントを見る', path: '/points' } },
    }[lang]
  },
  package_expiring: ({ package: names, ends_at }, lang) =>
    ({
      zh: { subject: `套餐「${names.zh}」将于三天内到期`, lines: [`您的套餐「${names.zh}」将于 ${mailTime(ends_at)} 到期，届时剩余积分将失效。`, '如需继续使用，请在到期前兑换新的套餐。'], action: { label: '查看订阅', path: '/subscription' } },
      en: { subject: `Your package "${names.en}" ends within three days`, lines: [`Your package "${names.en}" ends at ${mailTime(ends_at)}; its remaining points expire with it.`, 'Redeem a new package before then to keep going.'], action: { label: 'See your subscription', path: '/subscription' } },
      ja: { subject: `パッケージ「${names.ja}」は 3 日以内に終了します`, lines: [`パッケージ「${names.ja}」は ${mailTime(ends_at)} に終了し、残りのポイントも失効します。`, '引き続きご利用いただくには、終了前に新しいパッケージを引き換えてください。'], action: { label: 'サブスクリプションを見る', path: '/subscription' } },
    })[lang],
  package_expired: ({ package: names, ended_at }, lang) =>
    ({
      zh: { subject: `套餐「${names.zh}」已到期`, lines: [`您的套餐「${names.zh}」已于 ${mailTime(ended_at)} 到期。`, '兑换新的套餐即可继续使用。'], action: { label: '兑换套餐', path: '/subscription' } },
      en: { subject: `Your package "${names.en}" has ended`, lines: [`Your package "${names.en}" ended at ${mailTime(ended_at)}.`, 'Redeem a new package to keep going.'], action: { label: 'Redeem a package', path: '/subscription' } },
      ja: { subject: `パッケージ「${names.ja}」は終了しました`, lines: [`パッケージ「${names.ja}」は ${mailTime(ended_at)} に終了しました。`, '新しいパッケージを引き換えると引き続きご利用いただけます。'], action: { label: 'パッケージを引き換える', path: '/subscription' } },
    })[lang],
  ticket_reply: ({ ticket_id, number, title }, lang) =>
    ({
      zh: { subject: `工单 ${number} 有新回复`, lines: [`客服回复了您的工单 ${number}「${title}」。`], action: { label: '查看回复', path: `/tickets/${ticket_id}` } },
      en: { subject: `New reply on ticket ${number}`, lines: [`Support answered your ticket ${number} "${title}".`], action: { label: 'Read the reply', path: `/tickets/${ticket_id}` } },
      ja: { subject: `チケット ${number} に新しい返信があります`, lines: [`サポートがチケット ${number}「${title}」に返信しました。`], action: { label: '返信を見る', path: `/tickets/${ticket_id}` } },
    })[lang],
  new_sign_in: ({ at, ip, user_agent }, lang) => {
    // Named as the security page names it ("Chrome · Linux").
    const device = deviceName(user_agent)
    return {
      zh: { subject: '您的账户在新设备上登录', lines: [`${mailTime(at)}，您的账户在一台此前未使用过的设备或网络上登录。`, `地址：${ip}`, `设备：${device ?? '未知'}`, '如果这不是您本人，请立即修改密码。'], action: { label: '修改密码', path: '/profile' } },
      en: { subject: 'A sign-in to your account from a new device', lines: [`At ${mailTime(at)} someone signed in to your account from a device or network not seen before.`, `Address: ${ip}`, `Device: ${device ?? 'unknown'}`, 'If this was not you, change your password now.'], action: { label: 'Change your password', path: '/profile' } },
      ja: { subject: '新しいデバイスからアカウントにサインインがありました', lines: [`${mailTime(at)} に、これまで使われていないデバイスまたはネットワークからアカウントにサインインがありました。`, `アドレス：${ip}`, `デバイス：${device ?? '不明'}`, 'お心当たりがない場合は、すぐにパスワードを変更してください。'], action: { label: 'パスワードを変更する', path: '/profile' } },
    }[lang]
  },
}

const footer: PerLanguage<{ why: string; off: string }> = {
  zh: { why: `您收到这封邮件，是因为您在${brandName.zh}开启了此类通知。`, off: '不再接收此类邮件' },
  en: { why: `You get this mail because this kind of notice is on for your ${brandName.en} account.`, off: 'Stop mails like this' },
  ja: { why: `${brandName.ja} でこの種類の通知が有効になっているため、このメールをお送りしています。`, off: 'この種類のメールを停止する' },
}

export function renderNotification<E extends NotificationEvent>(event: E, payload: NotificationPayload[E], lang: ContentLanguage, links: Links): RenderedMail {
  const content = (renderers[event] as (p: NotificationPayload[E], l: ContentLanguage) => Content)(payload, lang)
  const { why, off } = footer[lang]
  return layOutMail(lang, {
    subject: content.subject,
    lines: content.lines,
    action: { label: content.action.label, url: new URL(content.action.path, links.publicUrl).href },
    footer: { text: why, link: { label: off, url: links.unsubscribeUrl } },
  })
}
