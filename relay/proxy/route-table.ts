/**
 * What routing a call needs — every model's price and every enabled provider — read together
 * and kept for a moment (docs/decisions/076-the-hot-path.md). Every relayed call needs them; they change only
 * when an operator runs `model-cost set` or `provider …`, usually from another process, which no
 * in-process signal would reach. So the table is reread when it is `ttlMs` old (a change reaches
 * running relays within that), and at once when a call names a model it does not price or no
 * provider of it serves — a model priced or a provider added a moment ago is never refused.
 * Reads are shared: calls arriving while the table is being read wait for that one read.
 */
import type { ModelCost } from '../contract/points.ts'
import type { Database } from '../db/open-database.ts'
import { listModelCosts, PriceTable } from '../points/model-costs.ts'
import type { ProviderKeyBox } from './provider-keys.ts'
import { enabledProviders, providerKinds, providersInOrder, type EnabledProvider, type Provider, type ProviderKind } from './providers.ts'

interface Snapshot {
  costs: PriceTable
  providers: Record<ProviderKind, EnabledProvider[]>
  readAt: number
}

export interface Route {
  /** Null: the relay does not price the model. */
  cost: ModelCost | null
  /** The price row that priced it: the model itself, its undated alias or a pattern. */
  pricedBy: string | null
  /** In the order to try them; empty when none serves the model. */
  providers: Provider[]
}

export interface RouteTableOptions {
  ttlMs?: number
  /** Monotonic milliseconds; tests pass their own. */
  now?: () => number
}

export class RouteTable {
  readonly #db: Database
  readonly #box: ProviderKeyBox
  readonly #onUnreadable: (providerId: string) => void
  readonly #ttlMs: number
  readonly #now: () => number
  #snapshot: Snapshot | null = null
  #reading: Promise<Snapshot> | null = null

  constructor(db: Database, box: ProviderKeyBox, onUnreadable: (providerId: string) => void, { ttlMs = 2000, now = () => performance.now() }: RouteTableOptions = {}) {
    this.#db = db
    this.#box = box
    this.#onUnreadable = onUnreadable
    this.#ttlMs = ttlMs
    this.#now = now
  }

  /** `affinityKey` names the client session: equal providers are ordered for it (rendezvous.ts). */
  async route(kind: ProviderKind, model: string, affinityKey: string): Promise<Route> {
    const fresh = this.#snapshot && this.#now() - this.#snapshot.readAt < this.#ttlMs ? this.#snapshot : null
    if (fresh) {
      const route = this.#routeIn(fresh, kind, model, affinityKey)
      if (route.cost && route.providers.length > 0) return route
    }
    // Too old, or the model was perhaps set up a moment ago: read again before refusing.
    return this.#routeIn(await this.#read(), kind, model, affinityKey)
  }

  /** The enabled providers as last read (none before the first call). */
  lastRead(): EnabledProvider[] {
    return this.#snapshot ? Object.values(this.#snapshot.providers).flat() : []
  }

  #routeIn(snapshot: Snapshot, kind: ProviderKind, model: string, affinityKey: string): Route {
    const priced = snapshot.costs.find(model)
    return {
      cost: priced?.cost ?? null,
      pricedBy: priced?.by ?? null,
      providers: providersInOrder(snapshot.providers[kind], this.#box, model, affinityKey, this.#onUnreadable),
    }
  }

  #read(): Promise<Snapshot> {
    this.#reading ??= this.#load()
      .then((snapshot) => (this.#snapshot = snapshot))
      .finally(() => (this.#reading = null))
    return this.#reading
  }

  async #load(): Promise<Snapshot> {
    const readAt = this.#now()
    const [costs, ...providers] = await Promise.all([listModelCosts(this.#db), ...providerKinds.map((kind) => enabledProviders(this.#db, kind))])
    return {
      costs: new PriceTable(costs),
      providers: Object.fromEntries(providerKinds.map((kind, i) => [kind, providers[i]!])) as Snapshot['providers'],
      readAt,
    }
  }
}
