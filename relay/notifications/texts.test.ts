import { describe, expect, it } from 'vitest'
import { brandName } from '../contract/brand.ts'
import { contentLanguages } from '../contract/languages.ts'
import { renderNotification } from './texts.ts'

const links = { publicUrl: 'https://portal.example', unsubscribeUrl: 'https://portal.example/unsubscribe?t=x' }
const at = Date.UTC(2026, 10, 29, 14, 5)
const chromeOnLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

describe('notification mails', () => {
  it.each(contentLanguages)('carry the portal’s name, its time zone and the device as the security page names it (%s)', (lang) => {
    const mail = renderNotification('new_sign_in', { at, ip: '198.51.100.7', user_agent: chromeOnLinux }, lang, links)
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(brandName[lang])
      expect(body).not.toContain('Relay Portal')
      expect(body).toContain('2026-11-29 22:05 (UTC+8)')
      expect(body).toContain('Chrome · Linux')
      expect(body).not.toContain('Mozilla/5.0')
    }
    // The brand heads the mail, in both parts.
    expect(mail.text.split('\n')[0]).toBe(brandName[lang])
    expect(mail.html).toMatch(new RegExp(`<body[^>]*>\\s*<p[^>]*data-brand>${brandName[lang]}</p>`))
  })

  it.each(contentLanguages)('are every one headed by the portal’s name, with the way to turn them off (%s)', (lang) => {
    const names = { zh: '月卡', en: 'Monthly', ja: '月額' }
    const mails = [
      renderNotification('balance_low', { balance: 12_345, threshold: 20_000 }, lang, links),
      renderNotification('package_expiring', { package: names, ends_at: at }, lang, links),
      renderNotification('package_expired', { package: names, ended_at: at }, lang, links),
      renderNotification('ticket_reply', { ticket_id: '42', number: 'T-0042', title: 'Slow answers' }, lang, links),
      renderNotification('new_sign_in', { at, ip: '198.51.100.7', user_agent: chromeOnLinux }, lang, links),
    ]
    for (const mail of mails) {
      expect(mail.text.split('\n')[0]).toBe(brandName[lang])
      expect(mail.html).toContain(`data-brand>${brandName[lang]}</p>`)
      expect(mail.html).toContain(`<html lang="${lang}">`)
      expect(mail.text).toContain(links.unsubscribeUrl)
      expect(mail.text).not.toContain('Relay Portal')
    }
    // Times in the portal's zone, said; numbers grouped as the portal groups them.
    for (const mail of mails.slice(1, 3)) expect(mail.text).toContain('2026-11-29 22:05 (UTC+8)')
    expect(mails[0]!.subject).toContain('20,000')
    expect(mails[0]!.text).toContain('12,345')
  })

  it.each(contentLanguages)('give package ends in UTC+8 (%s)', (lang) => {
    const names = { zh: '月卡', en: 'Monthly', ja: '月額' }
    const mail = renderNotification('package_expiring', { package: names, ends_at: Date.UTC(2026, 11, 31, 16, 0) }, lang, links)
    expect(mail.text).toContain('2027-01-01 00:00 (UTC+8)')
    expect(mail.text).toContain(names[lang])
  })
})
