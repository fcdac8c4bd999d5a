import { describe, expect, it } from 'vitest'
import { brandName } from '../contract/brand.ts'
import { contentLanguages } from '../contract/languages.ts'
import { codeMail } from './code-mail.ts'

describe('code mails', () => {
  it.each(contentLanguages)('are headed by the portal’s name and set the code apart (%s)', (lang) => {
    for (const purpose of ['register', 'reset'] as const) {
      const mail = codeMail('someone@example.com', purpose, '042917', 600, lang)
      expect(mail.text.split('\n')[0]).toBe(brandName[lang])
      expect(mail.text).toContain('\n042917\n')
      expect(mail.text).toContain('10')
      expect(mail.html).toMatch(new RegExp(`<body[^>]*>\\s*<p[^>]*data-brand>${brandName[lang]}</p>`))
      expect(mail.html).toMatch(/<p[^>]*data-code>042917<\/p>/)
      expect(mail.html).toContain(`<html lang="${lang}">`)
    }
    expect(codeMail('a@example.com', 'register', '1', 600, lang).subject).not.toBe(codeMail('a@example.com', 'reset', '1', 600, lang).subject)
  })
})
