/** The product's name, the one setting the portal's header and the relay's mails both read. */
import type { PerLanguage } from './languages.ts'

export const brandName: PerLanguage = { zh: '极速中转', en: 'SwiftRelay', ja: 'SwiftRelay' }
