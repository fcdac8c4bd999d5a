/**
 * Tries the providers in order until one answers. A provider fails over — before any byte has
 * reached the client, since the client's response starts only with the answer chosen here — on
 * a connection error, a connect or idle timeout, a 5xx, a 429 (its quota, not the client's) or a
 * 401/403/408 (its key or its gateway, not the client's). Any other status is the provider's
 * answer to the client's request and is passed on.
 */
import type { Logger } from '../logger.ts'
import { ProxyError } from './client-errors.ts'
import type { Provider } from './providers.ts'
import { sendUpstream, UpstreamError, type UpstreamRequest, type UpstreamResponse } from './upstream.ts'

export interface Forwarded {
  provider: Provider
  response: UpstreamResponse
}

/** The client went away before any provider answered. */
export class ClientGone extends Error {
  constructor(readonly providerId: string) {
    super('the client went away')
    this.name = 'ClientGone'
  }
}

/** No provider answered; `providerId` is the last one tried. */
export class ProvidersFailed extends ProxyError {
  constructor(
    error: ProxyError,
    readonly providerId: string,
  ) {
    super(error.kind, error.message)
  }
}

export function failsOver(status: number): boolean {
  return status >= 500 || status === 429 || status === 401 || status === 403 || status === 408
}

export async function forwardWithFailover(
  providers: readonly Provider[],
  build: (provider: Provider) => UpstreamRequest,
  logger: Logger,
): Promise<Forwarded> {
  // Made only when needed: an Error's stack trace costs microseconds on every call otherwise.
  let failure: ProxyError | null = null
  let lastId = ''
  for (const provider of providers) {
    lastId = provider.id
    try {
      const response = await sendUpstream(build(provider))
      if (!failsOver(response.status)) return { provider, response }
      // Drained, not read: its body may name the provider's key.
      response.body.resume()
      logger.warn('provider failed', { provider: provider.id, status: response.status })
      failure =
        response.status === 529 || response.status === 503
          ? new ProxyError('overloaded', 'The upstream providers are overloaded; try again shortly.')
          : new ProxyError('provider_failed', `The upstream provider failed (status ${response.status}).`)
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error
      if (error.kind === 'client_gone') throw new ClientGone(provider.id)
      logger.warn('provider failed', { provider: provider.id, error: error.kind, detail: error.message })
      failure =
        error.kind === 'timeout'
          ? new ProxyError('provider_timeout', 'The upstream provider did not answer in time.')
          : new ProxyError('provider_failed', 'The upstream provider could not be reached.')
    }
  }
  throw new ProvidersFailed(failure ?? new ProxyError('no_provider', 'No provider is available for this model.'), lastId)
}
