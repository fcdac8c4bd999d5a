/**
 * Every migration, by name; Kysely applies them in name order. A domain area adds one file
 * `NNNN-<area>.ts` exporting `up(db)` and registers it here. Use only the portable schema
 * builder: bigint ids and epoch-ms timestamps, integer points, varchar/text strings. PostgreSQL's
 * functions are not made here but in their own `.sql` files (db/functions.ts, docs/money.md).
 * Never edit a migration that has shipped: add a new one.
 */
import type { Migration } from 'kysely'
import * as core from './0001-core.ts'
import * as oauth from './0008-oauth.ts'
import * as accounts from './0002-accounts.ts'
import * as points from './0003-points.ts'
import * as apiKeys from './0005-api-keys.ts'
import * as referral from './0006-referral.ts'
import * as tickets from './0004-tickets.ts'
import * as resources from './0007-resources.ts'
import * as proxy from './0009-proxy.ts'
import * as languages from './0010-languages.ts'
import * as deployment from './0011-deployment.ts'
import * as idempotency from './0012-idempotency.ts'
import * as proxyPricing from './0013-proxy-pricing.ts'
import * as providerCircuits from './0014-provider-circuits.ts'
import * as sessionLifetime from './0017-session-lifetime.ts'
import * as auditLog from './0018-audit-log.ts'
import * as redeemCodeBatches from './0019-redeem-code-batches.ts'
import * as publicStats from './0020-public-stats.ts'
import * as incidents from './0021-incidents.ts'
import * as ledgerOrder from './0022-ledger-order.ts'
import * as deviceOrigin from './0023-device-origin.ts'
import * as consumedTotal from './0024-consumed-total.ts'
import * as keyLimits from './0025-key-limits.ts'
import * as usageLog from './0026-usage-log.ts'
import * as holdOwner from './0027-hold-owner.ts'
import * as accountSecurity from './0028-account-security.ts'
import * as notifications from './0030-notifications.ts'
import * as announcements from './0031-announcements.ts'
import * as operatorOverview from './0032-operator-overview.ts'
import * as pointsFunctions from './0036-points-functions.ts'
import * as usageDays from './0038-usage-days.ts'
import * as ledgerAccountTime from './0040-ledger-account-time.ts'
import * as teamMemberCaps from './0041-team-member-caps.ts'
import * as callFunctions from './0042-call-functions.ts'
import * as historyFilterIndexes from './0043-history-filter-indexes.ts'
import * as historyLineDays from './0044-history-line-days.ts'
import * as settleThenFlush from './0045-settle-then-flush.ts'
import * as rareOutcomeIndex from './0046-rare-outcome-index.ts'
import * as functionHashes from './0047-function-hashes.ts'
import * as priceColumns from './0048-price-columns.ts'
import * as openAiPrices from './0049-openai-prices.ts'
import * as gemini from './0050-gemini.ts'
import * as loginThrottleSubjects from './0051-login-throttle-subjects.ts'
import * as keyNetworks from './0057-key-networks.ts'
import * as modelMapping from './0058-model-mapping.ts'
import * as reconciliation from './0059-reconciliation.ts'
import * as alerts from './0060-alerts.ts'
import * as answeredHolds from './0062-answered-holds.ts'
import * as packageListing from './0065-package-listing.ts'
import * as listPrices from './0066-list-prices.ts'
import * as callLogTimeIndex from './0067-call-log-time-index.ts'
import * as latestSubscriptionIndex from './0068-latest-subscription-index.ts'
import * as settledHoldsUnmarked from './0069-settled-holds-unmarked.ts'

export const migrations: Record<string, Migration> = {
  '0001-core': core,
  '0002-accounts': accounts,
  '0003-points': points,
  '0008-oauth': oauth,
  '0004-tickets': tickets,
  '0005-api-keys': apiKeys,
  '0006-referral': referral,
  '0007-resources': resources,
  '0009-proxy': proxy,
  '0010-languages': languages,
  '0011-deployment': deployment,
  '0012-idempotency': idempotency,
  '0013-proxy-pricing': proxyPricing,
  '0014-provider-circuits': providerCircuits,
  '0017-session-lifetime': sessionLifetime,
  '0018-audit-log': auditLog,
  '0019-redeem-code-batches': redeemCodeBatches,
  '0020-public-stats': publicStats,
  '0021-incidents': incidents,
  '0022-ledger-order': ledgerOrder,
  '0023-device-origin': deviceOrigin,
  '0024-consumed-total': consumedTotal,
  '0025-key-limits': keyLimits,
  '0026-usage-log': usageLog,
  '0027-hold-owner': holdOwner,
  '0028-account-security': accountSecurity,
  '0030-notifications': notifications,
  '0031-announcements': announcements,
  '0032-operator-overview': operatorOverview,
  '0036-points-functions': pointsFunctions,
  '0038-usage-days': usageDays,
  '0040-ledger-account-time': ledgerAccountTime,
  '0041-team-member-caps': teamMemberCaps,
  '0042-call-functions': callFunctions,
  '0043-history-filter-indexes': historyFilterIndexes,
  '0044-history-line-days': historyLineDays,
  '0045-settle-then-flush': settleThenFlush,
  '0046-rare-outcome-index': rareOutcomeIndex,
  '0047-function-hashes': functionHashes,
  '0048-price-columns': priceColumns,
  '0049-openai-prices': openAiPrices,
  '0050-gemini': gemini,
  '0051-login-throttle-subjects': loginThrottleSubjects,
  '0057-key-networks': keyNetworks,
  '0058-model-mapping': modelMapping,
  '0059-reconciliation': reconciliation,
  '0060-alerts': alerts,
  '0062-answered-holds': answeredHolds,
  '0065-package-listing': packageListing,
  '0066-list-prices': listPrices,
  '0067-call-log-time-index': callLogTimeIndex,
  '0068-latest-subscription-index': latestSubscriptionIndex,
  '0069-settled-holds-unmarked': settledHoldsUnmarked,
}
