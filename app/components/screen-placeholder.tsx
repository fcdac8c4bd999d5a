/** A signed-in screen that a later milestone fills in; it says what will be there. */
import { useTranslation } from 'react-i18next'
import { Card } from '#app/components/ui/card.tsx'

export type PlaceholderScreen =
  | 'dashboard'
  | 'subscription'
  | 'points'
  | 'tickets'
  | 'ticketCreate'
  | 'ticketDetail'
  | 'apiKeys'
  | 'referral'
  | 'profile'

export function ScreenPlaceholder({ screen }: { screen: PlaceholderScreen }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">{t(`placeholder.${screen}.title`)}</h1>
      <Card>
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">{t('placeholder.soon')}</p>
        <p className="mt-2 text-zinc-600 dark:text-zinc-400">{t(`placeholder.${screen}.body`)}</p>
      </Card>
    </div>
  )
}
