import { describe, expect, it } from 'vitest'
import { languages } from '../../app/locales/types.ts'
import { contentLanguages } from '../contract/languages.ts'
import { requestLanguage } from './language.ts'

describe('requestLanguage', () => {
  it('takes the best language the relay speaks, Chinese otherwise', () => {
    expect(requestLanguage('en')).toBe('en')
    expect(requestLanguage('ja')).toBe('ja')
    expect(requestLanguage('en-US,en;q=0.9')).toBe('en')
    expect(requestLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh')
    expect(requestLanguage('fr-FR,fr;q=0.9,ja;q=0.5,en;q=0.4')).toBe('ja')
    expect(requestLanguage('en;q=0.2,ja;q=0.8')).toBe('ja')
    expect(requestLanguage('fr, de')).toBe('zh')
    expect(requestLanguage('en;q=0')).toBe('zh')
    expect(requestLanguage('*')).toBe('zh')
    expect(requestLanguage('')).toBe('zh')
    expect(requestLanguage(undefined)).toBe('zh')
  })

  it('speaks exactly the portal’s languages', () => {
    expect([...contentLanguages]).toEqual([...languages])
  })
})
