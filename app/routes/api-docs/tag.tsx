/**
 * `/api/docs/:tag`: one section of the API reference (docs/decisions/100-one-declaration-per-call.md), a page per tag so each
 * stays small: every call in full, with the try-it form for the reads a signed-in user may make
 * (docs/decisions/100-one-declaration-per-call.md). The form posts here; this action makes the call through the portal's
 * relay client with the user's session and shows the relay's reply as it came.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Link, type ShouldRevalidateFunctionArgs } from 'react-router'
import type { Route } from './+types/tag'
import { RelayCallError, isRelayUnavailable } from '#app/utils/relay-client.server.ts'
import { stringifyRelayJson } from '#relay/contract/index.ts'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, getSession, requireSession } from '#app/middleware/session.server.ts'
import { tryCallSchema } from '#app/schemas/api-docs.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'
import { loginUrl } from '#app/utils/safe-redirect.ts'
import { apiBaseUrl } from '#server/env.ts'
import { DocsNav, OperationCard, useSummary, useTagTitle, type TryOutcome } from './parts.tsx'
import { loadReference, operationsOf, tryableCall } from './reference.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }, { name: 'description', content: loaderData?.description }]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  const { document, tags } = await loadReference(context)
  if (!tags.some((tag) => tag.tag === params.tag)) throw data(null, { status: 404 })
  const tagTitle = t(`apidocs:tags.${params.tag}.title` as 'apidocs:tags.health.title', { defaultValue: params.tag })
  return {
    title: `${tagTitle} · ${t('apidocs:meta.title')}`,
    description: t(`apidocs:tags.${params.tag}.description` as 'apidocs:tags.health.description', { defaultValue: t('apidocs:meta.description') }),
    tag: params.tag,
    baseUrl: apiBaseUrl(request),
    signedIn: getSession(context) !== null,
    loginHref: loginUrl(request),
    tags,
    operations: operationsOf(document, params.tag, apiBaseUrl(request)),
    apidocs: routeNamespace(context, 'apidocs'),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: tryCallSchema })
  if (submission.status !== 'success') throw data(null, { status: 400 })
  const { operation, path = {}, query = {} } = submission.value
  const call = tryableCall(operation)
  if (!call) throw data(null, { status: 400 })
  requireSession(request, context)
  // Blank fields are left out, as a client would leave out a parameter it does not set.
  const given = (values: Record<string, string | undefined>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== ''))
  const values = { path: given(path), query: given(query) }
  const tried = (status: number, body: unknown): { tried: TryOutcome } => ({ tried: { operation, values, status, body: stringifyRelayJson(body, 2) } })
  try {
    // Typed per call elsewhere; here the call is chosen at run time and the relay validates what was typed.
    const reply = await getRelay(context).call(call, { params: values.path, query: values.query } as never)
    return tried(200, { code: 0, data: reply })
  } catch (error) {
    if (error instanceof RelayCallError) return tried(error.status, { code: error.code, message: error.message, error: { details: error.details } })
    if (isRelayUnavailable(error)) return tried(503, { message: getI18n(context).t('apidocs:tryIt.network') })
    throw error
  }
}

/** A try-it call changes nothing the page shows: the document is not read again after it. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? false : defaultShouldRevalidate
}

export default function ApiDocsTag({ loaderData, actionData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.apidocs)
  const { t } = useTranslation('apidocs')
  const title = useTagTitle()
  const summary = useSummary()
  const { tag, operations } = loaderData
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8">
      <div>
        <DocsNav tags={loaderData.tags} current={tag} />
      </div>
      <div className="min-w-0 space-y-6">
        <header>
          <BackLink to="/api/docs">{t('title')}</BackLink>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight text-zinc-900 dark:text-white">{title(tag)}</h1>
          <p className="mt-2 max-w-3xl text-zinc-600 dark:text-zinc-400">{t(`tags.${tag}.description` as 'tags.health.description', { defaultValue: '' })}</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            {t('basics.baseUrl')} <code className="font-mono font-semibold break-all text-zinc-900 dark:text-zinc-100">{loaderData.baseUrl}</code> ·{' '}
            <Link to="/api/docs#basics-title" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
              {t('basics.title')}
            </Link>
          </p>
          <ol className="mt-4 space-y-1 text-sm">
            {operations.map((operation) => (
              <li key={operation.id}>
                <a href={`#${operation.id}`} className="text-zinc-700 hover:text-indigo-600 dark:text-zinc-300 dark:hover:text-indigo-400">
                  <span className="inline-block w-14 font-mono text-xs font-semibold text-zinc-500 uppercase dark:text-zinc-400">{operation.method}</span>
                  {summary(operation)}
                </a>
              </li>
            ))}
          </ol>
        </header>
        {operations.map((operation) => (
          <OperationCard
            key={operation.id}
            operation={operation}
            signedIn={loaderData.signedIn}
            loginHref={loaderData.loginHref}
            lastTry={actionData?.tried.operation === operation.id ? actionData.tried : undefined}
          />
        ))}
      </div>
    </main>
  )
}
