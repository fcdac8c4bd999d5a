/**
 * A ticket's conversation: its description, then each reply, support's set apart. The user's
 * ticket page (app/routes/tickets/detail.tsx) and the console's (app/routes/admin/ticket.tsx)
 * show the same thread; only who "you" are differs: the user reads their own messages as "You",
 * an operator reads them under the owner's username.
 */
import { useTranslation } from 'react-i18next'
import type { TicketMessage } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'

export function TicketConversation({
  ticket,
  owner,
  testId,
}: {
  ticket: { content: string; create_timestamp: number; messages: TicketMessage[] }
  /** The owner's username for an operator; absent, the reader is the owner. */
  owner?: string
  testId: string
}) {
  const { t } = useTranslation('tickets')
  const original: TicketMessage = { id: 'original', author_kind: 'user', author_name: null, content: ticket.content, create_timestamp: ticket.create_timestamp }
  const hasReply = ticket.messages.some((message) => message.author_kind === 'admin')
  return (
    <Card aria-labelledby={`${testId}-title`}>
      <CardTitle id={`${testId}-title`}>{t('detail.conversation')}</CardTitle>
      <ol className="mt-4 space-y-4" data-testid={testId}>
        {[original, ...ticket.messages].map((message) => (
          <MessageItem key={message.id} message={message} original={message === original} owner={owner} />
        ))}
      </ol>
      {hasReply ? null : (
        <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400" data-testid="awaiting-reply">
          {owner === undefined ? t('detail.awaitingReply') : t('detail.noReplyYet')}
        </p>
      )}
    </Card>
  )
}

function MessageItem({ message, original, owner }: { message: TicketMessage; original: boolean; owner?: string }) {
  const { t } = useTranslation('tickets')
  const admin = message.author_kind === 'admin'
  const name = admin ? (message.author_name ?? t('detail.support')) : (owner ?? t('detail.you'))
  return (
    <li data-author={admin ? 'admin' : 'user'} className={cn('flex gap-3', admin ? 'flex-row' : 'flex-row-reverse sm:pl-10', admin && 'sm:pr-10')}>
      <span
        aria-hidden="true"
        className={cn(
          'grid size-8 shrink-0 place-items-center rounded-full text-xs font-semibold',
          admin ? 'bg-indigo-600 text-white dark:bg-indigo-500' : 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200',
        )}
      >
        {name.slice(0, 1).toUpperCase()}
      </span>
      <div
        className={cn(
          'min-w-0 flex-1 rounded-2xl px-4 py-3',
          admin
            ? 'rounded-tl-sm border border-indigo-200 bg-indigo-50 dark:border-indigo-900/70 dark:bg-indigo-950/40'
            : 'rounded-tr-sm border border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-800/50',
        )}
      >
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500 dark:text-zinc-400">
          <span className={cn('font-semibold break-all', admin ? 'text-indigo-700 dark:text-indigo-300' : 'text-zinc-700 dark:text-zinc-200')}>{name}</span>
          {admin ? <Badge tone="indigo">{t('detail.supportReply')}</Badge> : null}
          {original ? <Badge tone="zinc">{t('detail.original')}</Badge> : null}
          <LocalTime ms={message.create_timestamp} />
        </div>
        <p className="mt-1.5 text-sm break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">{message.content}</p>
      </div>
    </li>
  )
}
