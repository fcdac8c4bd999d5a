/** The language a relay answer is written in: the best of Accept-Language that the relay speaks. */
import { contentLanguages, defaultContentLanguage, type ContentLanguage } from '../contract/languages.ts'

/**
 * `zh-CN,zh;q=0.9,en;q=0.8` → `zh`; `en-US` → `en`; absent, `*` or only other languages → zh.
 * Tags are tried by quality, then in the order given; a tag matches on its primary subtag.
 */
export function requestLanguage(header: string | null | undefined): ContentLanguage {
  if (!header) return defaultContentLanguage
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const quality = q === undefined ? 1 : Number(q.slice(2))
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', quality: Number.isFinite(quality) ? quality : 0, index }
    })
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
  for (const { primary } of ranges) {
    const language = contentLanguages.find((l) => l === primary)
    if (language) return language
  }
  return defaultContentLanguage
}
