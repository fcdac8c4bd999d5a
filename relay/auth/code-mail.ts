/**
 * The mail carrying a sign-up or password reset code, in the language of the page that asked for
 * it (the portal sends its own as Accept-Language), laid out as every mail is (mail/layout.ts).
 */
import type { ContentLanguage, PerLanguage } from '../contract/languages.ts'
import type { EmailCodePurpose } from '../db/schema.ts'
import { layOutMail } from '../mail/layout.ts'
import type { Mail } from '../mail/mailer.ts'

const subjects: Record<EmailCodePurpose, PerLanguage> = {
  register: { zh: '注册验证码', en: 'Your sign-up code', ja: '登録用の確認コード' },
  reset: { zh: '重置密码验证码', en: 'Your password reset code', ja: 'パスワード再設定用の確認コード' },
}

const intro: PerLanguage = { zh: '您的验证码是：', en: 'Your verification code is:', ja: '確認コードは次のとおりです：' }

const validity = (minutes: number): PerLanguage => ({
  zh: `验证码 ${minutes} 分钟内有效，只能使用一次。如果这不是您本人的操作，请忽略本邮件。`,
  en: `It is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this mail.`,
  ja: `このコードの有効期限は ${minutes} 分で、1 回だけ使えます。お心当たりがない場合は、このメールを無視してください。`,
})

export function codeMail(to: string, purpose: EmailCodePurpose, code: string, ttlSeconds: number, lang: ContentLanguage): Mail {
  const rendered = layOutMail(lang, { subject: subjects[purpose][lang], lines: [intro[lang]], code, footer: { text: validity(Math.round(ttlSeconds / 60))[lang] } })
  return { to, ...rendered, summary: `${purpose} code ${code}` }
}
