/**
 * A translation key missing in en or ja fails the suite (the type check
 * catches it too, through `satisfies Messages<typeof zh>`), and every relay error reason has a
 * message in every language.
 */
import { describe, expect, it } from 'vitest'
import { errorCodes } from '#relay/contract/envelope.ts'
import { resources } from './index.ts'
import { languages } from './types.ts'

type Tree = { [key: string]: string | Tree }

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [p, v] of leaves(value, path)) out.set(p, v)
  }
  return out
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/{{\s*(\w+)\s*}}|<(\w+)>/g)].map((m) => m[1] ?? m[2]!).sort()
}

const source = leaves(resources.zh as unknown as Tree)

describe.each(languages.filter((l) => l !== 'zh'))('%s translation', (language) => {
  const target = leaves(resources[language] as unknown as Tree)
  // English call summaries are the contract's own (relay/contract/): en translates none of them.
  const expected = language === 'en' ? new Map([...source].filter(([key]) => !key.startsWith('apidocs.operations.'))) : source

  it('has every key zh has, and no others', () => {
    expect([...expected.keys()].filter((k) => !target.has(k))).toEqual([])
    expect([...target.keys()].filter((k) => !expected.has(k))).toEqual([])
  })

  it('has no empty strings and keeps every placeholder', () => {
    for (const [key, text] of target) {
      expect(text.trim(), key).not.toBe('')
      expect(placeholders(text), key).toEqual(placeholders(source.get(key) ?? ''))
    }
  })
})

describe('relay error reasons', () => {
  it.each(languages)('each has a message in %s', (language) => {
    const messages = leaves(resources[language] as unknown as Tree)
    const missing = Object.keys(errorCodes).filter((reason) => !messages.has(`errors.reason.${reason}`))
    expect(missing).toEqual([])
  })
})
