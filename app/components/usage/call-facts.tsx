/** What a call's page says of it, to its owner and to an operator; each page adds its own facts. */
import { useTranslation } from 'react-i18next'
import type { UsageCall } from '#relay/contract/index.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import type { Fact } from '#app/components/ui/facts.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { CallOutcome } from './call-outcome.tsx'

export function useCallFacts(call: UsageCall, { noModel = '—' }: { noModel?: string } = {}): Fact[] {
  const { t } = useTranslation('usage')
  const number = useNumberFormat()
  return [
    { label: t('calls.time'), value: <LocalTime ms={call.create_timestamp} /> },
    { label: t('calls.key'), value: call.key_name ?? (call.client_id ? t('calls.client', { client: call.client_id }) : '—') },
    { label: t('calls.model'), value: <span className="font-mono text-sm break-all">{call.model || noModel}</span> },
    { label: t('calls.outcome'), value: <CallOutcome call={call} /> },
    { label: t('detail.status'), value: call.status },
    { label: t('detail.api'), value: `${t(`apis.${call.api}`)} · ${t('detail.streamed')} ${call.streamed ? t('detail.yes') : t('detail.no')}` },
    { label: t('calls.tokens'), value: t('calls.inOut', { input: number(call.input_tokens), output: number(call.output_tokens) }) },
    { label: t('detail.cache'), value: `${number(call.cache_read_tokens)} / ${number(call.cache_write_tokens + call.cache_write_1h_tokens)}` },
    { label: t('calls.points'), value: call.shortfall_points > 0 ? `${number(call.points)} · ${t('calls.shortfall', { points: number(call.shortfall_points) })}` : number(call.points) },
  ]
}
