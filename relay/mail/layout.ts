/**
 * How every mail to a user looks, once: headed by the product's name as the portal's header shows
 * it (contract/brand.ts), then the subject, the paragraphs, a code or a button, and a footer; a
 * text part and the same as HTML. The code mails (auth/code-mail.ts) and the notifications
 * (notifications/texts.ts) write only what they say.
 */
import { brandName } from '../contract/brand.ts'
import { dayOffsetMs, hourMs } from '../contract/days.ts'
import type { ContentLanguage } from '../contract/languages.ts'

export interface MailContent {
  subject: string
  /** Paragraphs. */
  lines: string[]
  /** A one-time code, set large so it is read and typed without mistakes. */
  code?: string
  action?: { label: string; url: string }
  footer?: { text: string; link?: { label: string; url: string } }
}

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

/**
 * Minutes in the portal's zone, said with the time: `2026-11-29 22:05 (UTC+8)`. Users have no zone
 * of their own; the portal's days and dates are UTC+8 (docs/decisions/021-days-and-times.md), and
 * a mail has no browser to ask.
 */
export function mailTime(ms: number): string {
  return `${new Date(ms + dayOffsetMs).toISOString().slice(0, 16).replace('T', ' ')} (UTC+${dayOffsetMs / hourMs})`
}

/** Numbers grouped as the portal prints them (12,345). */
export function mailNumber(value: number, lang: ContentLanguage): string {
  return new Intl.NumberFormat(lang).format(value)
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function layOutMail(lang: ContentLanguage, content: MailContent): RenderedMail {
  const brand = brandName[lang]
  const { subject, lines, code, action, footer } = content
  const text = [
    brand,
    '',
    ...lines,
    ...(code ? ['', code] : []),
    ...(action ? ['', `${action.label}: ${action.url}`] : []),
    ...(footer ? ['', '--', footer.text, ...(footer.link ? [`${footer.link.label}: ${footer.link.url}`] : [])] : []),
  ].join('\n')
  const html = [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,-apple-system,sans-serif;color:#18181b">',
    `<p style="max-width:560px;margin:0 auto 12px;font-size:16px;font-weight:700;color:#4f46e5" data-brand>${escapeHtml(brand)}</p>`,
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">',
    `<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(subject)}</h1>`,
    ...lines.map((line) => `<p style="font-size:14px;line-height:1.6;margin:0 0 12px">${escapeHtml(line)}</p>`),
    ...(code ? [`<p style="margin:20px 0;font-family:ui-monospace,monospace;font-size:28px;font-weight:700;letter-spacing:6px" data-code>${escapeHtml(code)}</p>`] : []),
    ...(action
      ? [`<p style="margin:20px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-size:14px">${escapeHtml(action.label)}</a></p>`]
      : []),
    '</div>',
    ...(footer
      ? [`<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#71717a">${escapeHtml(footer.text)}${footer.link ? ` <a href="${escapeHtml(footer.link.url)}" style="color:#71717a">${escapeHtml(footer.link.label)}</a>` : ''}</p>`]
      : []),
    '</body></html>',
  ].join('\n')
  return { subject, text, html }
}
