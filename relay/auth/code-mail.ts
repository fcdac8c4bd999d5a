import type { EmailCodePurpose } from '../db/schema.ts'
import type { Mail } from '../mail/mailer.ts'

const subjects: Record<EmailCodePurpose, { zh: string; en: string }> = {
  register: { zh: '注册验证码', en: 'Your sign-up code' },
  reset: { zh: '重置密码验证码', en: 'Your password reset code' },
}

/** One mail in Chinese then English: the user's language is not known when a code is sent. */
export function codeMail(to: string, purpose: EmailCodePurpose, code: string, ttlSeconds: number): Mail {
  const minutes = Math.round(ttlSeconds / 60)
  const subject = subjects[purpose]
  return {
    to,
    subject: `${subject.zh} / ${subject.en}`,
    text: [
      `您的验证码是：${code}`,
      `验证码 ${minutes} 分钟内有效，只能使用一次。如果这不是您本人的操作，请忽略本邮件。`,
      '',
      `Your verification code is: ${code}`,
      `It is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this mail.`,
    ].join('\n'),
    summary: `${purpose} code ${code}`,
  }
}
