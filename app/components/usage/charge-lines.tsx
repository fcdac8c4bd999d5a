/**
 * How a call was charged, line by line, as its record keeps it (docs/pricing.md): each kind of
 * token at its rate per million (or searches and the call at points each), the long-context
 * percentage where the tier applied, and the total rounded up once. The prices are those of the
 * call's day, so a model repriced since never changes what this shows.
 */
import { useTranslation } from 'react-i18next'
import type { UsageCall } from '#relay/contract/index.ts'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

type Charge = NonNullable<UsageCall['charge']>

/** Tokens are priced per million; searches and a fixed-price call per each. */
const perEach = new Set<Charge['lines'][number]['item']>(['call', 'web_search'])

export function ChargeLines({ charge }: { charge: UsageCall['charge'] }) {
  const { t, i18n } = useTranslation('usage')
  const number = useNumberFormat()
  const exact = numberFormat(i18n.language, { maximumFractionDigits: 4 })
  return (
    <Card aria-labelledby="charge-title" data-testid="call-charge">
      <CardTitle id="charge-title">{t('charge.title')}</CardTitle>
      {charge === null ? (
        <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">{t('charge.none')}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {t('charge.price', { price: charge.price })}
            {charge.long_context
              ? ` · ${t('charge.longContext', { threshold: number(charge.long_context.threshold), input: charge.long_context.input_percent, output: charge.long_context.output_percent })}`
              : ''}
          </p>
          <Table
            className="mt-3"
            columns={[
              { id: 'item', label: t('charge.item') },
              { id: 'quantity', label: t('charge.quantity'), align: 'end' },
              { id: 'rate', label: t('charge.rate'), align: 'end' },
              { id: 'points', label: t('charge.points'), align: 'end' },
            ]}
          >
            {charge.lines.map((line) => (
              <tr key={line.item} data-testid="charge-line" data-item={line.item}>
                <td className="py-2 pr-3">{t(`charge.items.${line.item}`)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{number(line.quantity)}</td>
                <td className="py-2 pr-3 text-right text-zinc-600 tabular-nums dark:text-zinc-400">
                  {perEach.has(line.item) ? t('charge.each', { rate: number(line.rate) }) : t('charge.perMillion', { rate: number(line.rate) })}
                  {line.percent !== 100 ? ` × ${line.percent}%` : ''}
                </td>
                <td className="py-2 text-right tabular-nums">{exact.format(line.points)}</td>
              </tr>
            ))}
            <tr data-testid="charge-total">
              <td className="py-2 pr-3 font-semibold" colSpan={3}>
                {t('charge.total')}
              </td>
              <td className="py-2 text-right font-semibold tabular-nums">{number(charge.points)}</td>
            </tr>
          </Table>
        </>
      )}
    </Card>
  )
}
