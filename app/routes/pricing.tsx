/**
 * The public price list (docs/decisions/080-prices.md): every priced model or pattern, every package, and
 * what a point is worth against the provider's list price. Server-rendered, no script needed.
 */
import { useTranslation } from 'react-i18next'
import type { Route } from './+types/pricing'
import { defaultWebSearchPoints, endpoints, type PublicPricing } from '#relay/contract/index.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { packageKindTone } from '#app/components/subscription/package-kind.ts'
import { numberFormat } from '#app/utils/intl-formats.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }, { name: 'description', content: loaderData?.description }]

export async function loader({ context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  return {
    title: t('public:pricing.meta.title'),
    description: t('public:pricing.meta.description'),
    pricing: await getRelay(context).call(endpoints.public.pricing),
    public: routeNamespace(context, 'public'),
  }
}

/** A point's price in yuan, to a hundredth of a fen. */
function yuanOf(fen: number, language: string): string {
  return numberFormat(language, { maximumFractionDigits: 4 }).format(fen / 100)
}

const rateIds = ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'webSearch'] as const
type Model = PublicPricing['models'][number]

function rateOf(model: Model, id: (typeof rateIds)[number]): number | null {
  if (model.kind !== 'variable') return null
  if (id === 'input') return model.input_points_per_mtok
  if (id === 'output') return model.output_points_per_mtok
  // A missing cache rate is charged as input (contract/points.ts).
  if (id === 'cacheRead') return model.cache_read_points_per_mtok ?? model.input_points_per_mtok
  if (id === 'cacheWrite') return model.cache_write_points_per_mtok ?? model.input_points_per_mtok
  // A 1-hour write without its own rate costs twice the input rate; a search, points each (docs/pricing.md).
  if (id === 'cacheWrite1h') return model.cache_write_1h_points_per_mtok ?? (model.input_points_per_mtok === null ? null : 2 * model.input_points_per_mtok)
  return model.web_search_points ?? defaultWebSearchPoints
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.public)
  const { t, i18n } = useTranslation('public')
  const { pricing } = loaderData
  const best = pricing.packages.find((pkg) => pkg.code === pricing.best_package_code)
  const yuan = (fen: number) => yuanOf(fen, i18n.language)
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-900 dark:text-white">{t('pricing.title')}</h1>
        <p className="mt-2 max-w-3xl text-zinc-600 dark:text-zinc-400">{t('pricing.subtitle')}</p>
        <p className="mt-3 max-w-3xl text-sm text-zinc-600 dark:text-zinc-400" data-testid="point-worth">
          {best
            ? t('pricing.pointWorth', {
                name: best.name,
                yuan: yuan(best.fen_per_point!),
                date: pricing.list_prices_date,
                rate: numberFormat(i18n.language).format(pricing.cny_per_usd),
              })
            : t('pricing.noPaidPackage')}
        </p>
      </header>
      <Packages packages={pricing.packages} />
      <Models models={pricing.models} />
    </main>
  )
}

function Packages({ packages }: { packages: PublicPricing['packages'] }) {
  const { t, i18n } = useTranslation('public')
  const format = useNumberFormat()
  const money = numberFormat(i18n.language, {
    style: 'currency',
    currency: 'CNY',
  }).format
  const yuan = (fen: number) => yuanOf(fen, i18n.language)
  return (
    <section aria-labelledby="packages-title">
      <h2 id="packages-title" className="text-xl font-semibold text-zinc-900 dark:text-white">
        {t('pricing.packages.title')}
      </h2>
      {packages.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('pricing.packages.empty')}</p>
      ) : (
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="pricing-packages">
          {packages.map((pkg) => (
            <li key={pkg.code} data-testid={`package-${pkg.code}`}>
              <Card className="h-full">
                <div className="flex items-start justify-between gap-2">
                  <CardTitle>{pkg.name}</CardTitle>
                  <Badge tone={packageKindTone[pkg.kind]}>{t(`pricing.packages.${pkg.kind}`)}</Badge>
                </div>
                <p className="mt-2 text-3xl font-semibold tracking-tight text-zinc-900 tabular-nums dark:text-white">
                  {pkg.price === 0 ? t('pricing.packages.free') : money(pkg.price / 100)}
                </p>
                {pkg.description ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{pkg.description}</p> : null}
                <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                  <dt className="text-zinc-500 dark:text-zinc-400">{t('pricing.packages.points')}</dt>
                  <dd className="text-right tabular-nums">
                    {t('pricing.packages.pointsValue', {
                      points: format(pkg.points_limit),
                    })}
                  </dd>
                  {pkg.kind === 'topup' ? (
                    // A top-up refills nothing and lasts as long as the plan it is added to.
                    <dd className="col-span-2 text-zinc-500 dark:text-zinc-400">{t('pricing.packages.topupNote')}</dd>
                  ) : (
                    <>
                      <dt className="text-zinc-500 dark:text-zinc-400">{t('pricing.packages.refill')}</dt>
                      <dd className="text-right tabular-nums">
                        {t('pricing.packages.pointsValue', {
                          points: format(pkg.hour_points),
                        })}
                      </dd>
                      <dt className="text-zinc-500 dark:text-zinc-400">{t('pricing.packages.validity')}</dt>
                      <dd className="text-right tabular-nums">{t('pricing.packages.days', { count: pkg.validity_days })}</dd>
                    </>
                  )}
                  <dt className="text-zinc-500 dark:text-zinc-400">{t('pricing.packages.perPoint')}</dt>
                  <dd className="text-right tabular-nums">
                    {pkg.fen_per_point === null
                      ? t('pricing.models.none')
                      : t('pricing.packages.perPointValue', {
                          yuan: yuan(pkg.fen_per_point),
                        })}
                  </dd>
                </dl>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Models({ models }: { models: Model[] }) {
  const { t } = useTranslation('public')
  const format = useNumberFormat()
  const usd = (value: number | null) => (value === null ? null : `$${value}`)
  return (
    <Card aria-labelledby="models-title">
      <CardTitle id="models-title">{t('pricing.models.title')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('pricing.models.rates')}</p>
      <div className="mt-3">
        <Table
          testId="pricing-models"
          caption={t('pricing.models.caption')}
          columns={[
            { id: 'model', label: t('pricing.models.model') },
            {
              id: 'rates',
              label: t('pricing.models.rates'),
              className: 'sm:hidden',
            },
            ...rateIds.map((id) => ({
              id,
              label: t(`pricing.models.${id}`),
              align: 'end' as const,
              className: 'hidden sm:table-cell',
            })),
            {
              id: 'list',
              label: t('pricing.models.list'),
              align: 'end' as const,
            },
            {
              id: 'savings',
              label: t('pricing.models.savings'),
              align: 'end' as const,
            },
          ]}
        >
          {models.map((model) => {
            const rates = rateIds.map((id) => ({
              id,
              value: rateOf(model, id),
            }))
            const list = [usd(model.list_input_usd_per_mtok), usd(model.list_output_usd_per_mtok)]
            return (
              <tr key={model.model} data-testid={`price-${model.model}`}>
                <th scope="row" className="py-2.5 pr-3 text-left align-top font-normal">
                  <span className="font-mono text-xs font-medium break-all">{model.model}</span>
                  {model.model.includes('*') ? (
                    <span className="block text-xs text-zinc-500 dark:text-zinc-400">{t('pricing.models.pattern', { pattern: model.model })}</span>
                  ) : model.description ? (
                    <span className="block text-xs text-zinc-500 dark:text-zinc-400">{model.description}</span>
                  ) : null}
                  {model.long_context_threshold ? (
                    <span className="block text-xs text-amber-700 dark:text-amber-400">
                      {t('pricing.models.longContext', {
                        tokens: format(model.long_context_threshold),
                        input: format(model.long_context_input_percent ?? 100),
                        output: format(model.long_context_output_percent ?? 100),
                      })}
                    </span>
                  ) : null}
                </th>
                {model.kind === 'fixed' ? (
                  <td className="py-2.5 pr-3 align-top text-xs sm:hidden">
                    {t('pricing.models.perCall', {
                      points: format(model.points_per_call ?? 0),
                    })}
                  </td>
                ) : (
                  <td className="py-2.5 pr-3 align-top text-xs tabular-nums sm:hidden">
                    {rates.map((rate) => (
                      <span key={rate.id} className="block whitespace-nowrap">
                        {t(`pricing.models.${rate.id}`)} <span className="font-semibold">{format(rate.value ?? 0)}</span>
                      </span>
                    ))}
                  </td>
                )}
                {model.kind === 'fixed' ? (
                  <td colSpan={rateIds.length} className="hidden py-2.5 pr-3 text-right align-top tabular-nums sm:table-cell">
                    {t('pricing.models.perCall', {
                      points: format(model.points_per_call ?? 0),
                    })}
                  </td>
                ) : (
                  rates.map((rate) => (
                    <td key={rate.id} className="hidden py-2.5 pr-3 text-right align-top tabular-nums sm:table-cell">
                      {rate.value === null ? t('pricing.models.none') : format(rate.value)}
                    </td>
                  ))
                )}
                <td className="py-2.5 pr-3 text-right align-top whitespace-nowrap tabular-nums text-zinc-600 dark:text-zinc-400">
                  {list[0] === null ? t('pricing.models.none') : `${list[0]} / ${list[1]}`}
                </td>
                <td
                  className={cn(
                    'py-2.5 text-right align-top font-semibold tabular-nums',
                    model.savings_percent === null
                      ? 'font-normal text-zinc-400 dark:text-zinc-500'
                      : model.savings_percent > 0 && 'text-emerald-700 dark:text-emerald-400',
                  )}
                >
                  {model.savings_percent === null ? t('pricing.models.none') : `${model.savings_percent}%`}
                </td>
              </tr>
            )
          })}
        </Table>
      </div>
    </Card>
  )
}
