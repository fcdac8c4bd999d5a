/** The team packages a console form offers (create a team, renew one), named in the reader's language. */
import type { RouterContextProvider } from 'react-router'
import { endpoints, type ContentLanguage } from '#relay/contract/index.ts'
import { getLocale } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'

export async function teamPackageOptions(context: Readonly<RouterContextProvider>): Promise<Array<{ value: string; label: string }>> {
  const { items } = await getRelay(context).call(endpoints.admin.catalogPackages)
  const lang = getLocale(context) as ContentLanguage
  return items.filter((pkg) => pkg.kind === 'team').map((pkg) => ({ value: pkg.code, label: `${pkg.name[lang] ?? pkg.name.zh} (${pkg.code})` }))
}
