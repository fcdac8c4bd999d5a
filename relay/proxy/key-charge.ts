/**
 * A call's charge within its key's limits and its owner's team caps (call-leases.ts) and the
 * ledger (metering.ts).
 */
import type { ModelCost } from '../contract/points.ts'
import { RelayError } from '../http/relay-error.ts'
import { mayCall, type KeyControls } from '../keys/limits.ts'
import { confirmApiKey, forgetApiKey } from '../keys/service.ts'
import type { RelayServices } from '../services.ts'
import { deleteLease, memberCaps, takeLease } from './call-leases.ts'
import type { CallRecord } from './call-log.ts'
import { ProxyError, proxyErrorStatus, type ClientApi } from './client-errors.ts'
import { chargeUpfront, reservation, type Charge, type UpfrontCharge } from './metering.ts'
import { RefusalBudget } from './refusal-budget.ts'

/** Refuses (403) a model the key may not call. */
export function allowModel(key: KeyControls | null, model: string): void {
  if (mayCall(key, model)) return
  throw new ProxyError('model_not_allowed', `This API key may not call ${model}: its owner limited it to other models on the portal's API keys page.`)
}

/** What a refused call is recorded with; the refusal adds the outcome, status and reason. */
export type CallContext = Omit<CallRecord, 'outcome' | 'status' | 'usage' | 'points' | 'shortfall' | 'providerId' | 'durationMs' | 'relayMs' | 'refusal'> & {
  api: ClientApi
  /** `performance.now()` when the call arrived. */
  started: number
  /** The client's upload, not the relay's time (docs/decisions/120-figures-from-hourly-aggregates.md). */
  uploadMs: number
}

/**
 * The key's checks, then the charge (metering.ts): the call's lease is taken before its points,
 * so a call the key's limits refuse never touches the ledger, and given back when the charge is
 * refused. A refusal is recorded as the call's outcome (`refused`, with its reason) and thrown.
 */
export async function chargeWithinKeyLimits(
  services: RelayServices,
  key: KeyControls | null,
  upfront: UpfrontCharge,
  call: CallContext,
): Promise<{ charge: Charge; leaseId: string | null }> {
  let leaseId: string | null = null
  try {
    allowModel(key, upfront.model)
    const capped = await memberCaps.isCapped(services.db, upfront.userId, services.clock.now())
    if (key?.counted || capped) leaseId = await takeLease(services, { keyId: key?.counted ? key.keyId : null, memberId: capped ? upfront.userId : null }, likelyPoints(upfront))
    // A key from the cache is confirmed by the freeze, or, when the call freezes nothing, on its own.
    const liveKey = key && !key.confirmed ? key.keyId : null
    const charge = await chargeUpfront(services, upfront, liveKey)
    if (charge.kind === 'free' && key) await confirmApiKey(services.db, key, services.clock)
    return { charge, leaseId }
  } catch (error) {
    if (leaseId !== null) {
      // A lease the database will not give back now (it is out of reach) stops counting after
      // STALE_HOLD_MINUTES; the call's own error is the one to answer.
      await deleteLease(services.db, { id: leaseId }).catch(() => undefined)
    }
    // The key is no longer live (RelayError, as authenticateApiKey refuses): refused as at
    // authentication, and recorded as there when it is switched off or expired (its owner is known).
    if (error instanceof RelayError && key) forgetApiKey(key.keyId)
    const refusal = error instanceof RelayError && keyRefusals.has(error.reason) ? credentialRefusal(error) : error
    // A deleted key (`unauthenticated`) is no longer anyone's: not recorded, as at authentication.
    if (refusal instanceof ProxyError && refusal.kind !== 'unauthenticated') recordRefusal(services, call, refusal)
    throw refusal
  }
}

/** How the ledger's freeze refuses a cached key found no longer live (points/ledger.ts `freeze`). */
const keyRefusals = new Set<string>(['unauthenticated', 'api_key_disabled', 'api_key_expired'])

/** A credential's refusal (apiCaller's RelayError) in the client's terms. */
export function credentialRefusal(error: RelayError): ProxyError {
  if (error.reason === 'insufficient_scope') {
    return new ProxyError('insufficient_scope', 'This OAuth token was not granted the api scope: sign in again asking for scope "api" (docs/oauth.md), or use an API key from the portal.')
  }
  if (error.reason === 'api_key_address_refused') {
    return new ProxyError('key_address_refused', `This API key may not be used from ${String(error.details.address ?? 'this address')}: its owner allows it only from listed addresses (portal API keys page, "allowed IP addresses").`)
  }
  if (error.reason === 'token_expired') return new ProxyError('unauthenticated', 'The OAuth access token has expired: refresh it (docs/oauth.md).')
  if (error.reason === 'api_key_disabled') return new ProxyError('key_disabled', "This API key is disabled: its owner can enable it again on the portal's API keys page.")
  if (error.reason === 'api_key_expired') return new ProxyError('key_disabled', "This API key has expired: its owner can extend it on the portal's API keys page, or create a new one.")
  // Never "x-api-key" in this message: Claude Code then shows its own "Not logged in · Please run /login" instead.
  return new ProxyError('unauthenticated', "Invalid API key: the key is unknown or was deleted. Create one on the portal's API keys page and use it as the API key (Claude Code: ANTHROPIC_AUTH_TOKEN).")
}

const budgets = new WeakMap<RelayServices, RefusalBudget>()

/**
 * A call the relay refused itself, once its caller is known, recorded as the call's outcome
 * (`refused`, with its reason): only a known key or token reaches here, so an unknown caller
 * cannot fill the log, and a known one adds at most its minute's share (refusal-budget.ts); the
 * rest are only counted.
 */
export function recordRefusal(services: RelayServices, call: CallContext, error: ProxyError): void {
  let budget = budgets.get(services)
  if (!budget) budgets.set(services, (budget = new RefusalBudget()))
  if (!budget.take(call.keyId ?? `${call.userId}:${call.clientId}`, services.clock.now())) {
    services.metrics?.refusalUnrecorded(error.kind)
    return
  }
  const { started, uploadMs, ...record } = call
  const durationMs = performance.now() - started
  void services.settlements.add({
    charge: { kind: 'free' },
    cost: freeCost,
    usage: null,
    leaseId: null,
    call: {
      ...record,
      outcome: 'refused',
      status: proxyErrorStatus(call.api, error.kind),
      providerId: null,
      usage: null,
      refusal: error.kind,
      durationMs,
      relayMs: durationMs - uploadMs,
    },
  })
}

/** Never read: a refusal's charge is free. */
const freeCost: ModelCost = { model: '', kind: 'fixed', points_per_call: 0, input_points_per_mtok: null, output_points_per_mtok: null, cache_read_points_per_mtok: null, cache_write_points_per_mtok: null, description: null }

function likelyPoints({ cost, inputTokens, maxOutputTokens, shortfallCeiling, webSearches }: UpfrontCharge): number {
  return cost.kind === 'fixed' ? (cost.points_per_call ?? 0) : reservation(cost, inputTokens, maxOutputTokens, shortfallCeiling, webSearches).points
}
