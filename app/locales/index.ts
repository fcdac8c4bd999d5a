import en from './en/index.ts'
import enLegal from './en/legal.ts'
import enMarketing from './en/marketing.ts'
import enPublic from './en/public.ts'
import enAdmin from './en/admin.ts'
import enApidocs from './en/apidocs.ts'
import ja from './ja/index.ts'
import jaLegal from './ja/legal.ts'
import jaMarketing from './ja/marketing.ts'
import jaPublic from './ja/public.ts'
import jaAdmin from './ja/admin.ts'
import jaApidocs from './ja/apidocs.ts'
import zh from './zh/index.ts'
import zhLegal from './zh/legal.ts'
import zhMarketing from './zh/marketing.ts'
import zhPublic from './zh/public.ts'
import zhAdmin from './zh/admin.ts'
import zhApidocs from './zh/apidocs.ts'

/**
 * Every string, for the server. The browser downloads only its language's index.ts; the page-only
 * namespaces (marketing, legal, public, admin, apidocs) reach it through their page's loader (utils/route-namespace.ts).
 */
export const resources = {
  zh: { ...zh, marketing: zhMarketing, legal: zhLegal, public: zhPublic, admin: zhAdmin, apidocs: zhApidocs },
  en: { ...en, marketing: enMarketing, legal: enLegal, public: enPublic, admin: enAdmin, apidocs: enApidocs },
  ja: { ...ja, marketing: jaMarketing, legal: jaLegal, public: jaPublic, admin: jaAdmin, apidocs: jaApidocs },
}
export type Resources = (typeof resources)['zh']
