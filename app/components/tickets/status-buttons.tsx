/**
 * Close and reopen (docs/product.md): each a small POST form with an `intent`, so they work without
 * JavaScript. Only the transition the ticket's status allows is offered; the relay still decides.
 */
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { openTicketStatuses } from '#relay/contract/index.ts'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { cn } from '#app/components/ui/cn.ts'

export function canClose(status: string): boolean {
  return (openTicketStatuses as readonly string[]).includes(status)
}

export function TicketStatusButtons({ id, status, className }: { id: string; status: string; className?: string }) {
  const { t } = useTranslation('tickets')
  const intent = canClose(status) ? 'close' : status === 'closed' ? 'reopen' : null
  if (!intent) return null
  return (
    <Form method="post" className={cn('inline-flex', className)}>
      <input type="hidden" name="id" value={id} />
      <SubmitButton intent={intent} variant="secondary" size="sm">
        {t(intent === 'close' ? 'list.close' : 'list.reopen')}
      </SubmitButton>
    </Form>
  )
}
