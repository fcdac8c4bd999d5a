/**
 * `/api/docs`: the API reference's overview (docs/decisions/100-one-declaration-per-call.md). Every call of the relay's
 * OpenAPI document, by tag, with its method, path, authentication and summary in the reader's
 * language, each linking to its tag's page; and what every call has in common, with the
 * deployment's public address. Server-rendered, no script needed.
 */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/index'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CodeBlock } from '#app/components/ui/code-block.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getSession } from '#app/middleware/session.server.ts'
import { routeNamespace } from '#app/utils/route-namespace.server.ts'
import { useRouteNamespace } from '#app/utils/route-namespace.ts'
import { apiBaseUrl } from '#server/env.ts'
import { AuthBadge, DocsNav, MethodBadge, useSummary, useTagTitle } from './parts.tsx'
import { loadReference } from './reference.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }, { name: 'description', content: loaderData?.description }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context)
  const { tags } = await loadReference(context)
  return {
    title: t('apidocs:meta.title'),
    description: t('apidocs:meta.description'),
    baseUrl: apiBaseUrl(request),
    signedIn: getSession(context) !== null,
    tags,
    apidocs: routeNamespace(context, 'apidocs'),
  }
}

export default function ApiDocs({ loaderData }: Route.ComponentProps) {
  useRouteNamespace(loaderData.apidocs)
  const { t } = useTranslation('apidocs')
  const title = useTagTitle()
  const summary = useSummary()
  const { tags, baseUrl } = loaderData
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8">
      <div>
        <DocsNav tags={tags} />
      </div>
      <div className="min-w-0 space-y-6">
        <header>
          <h1 className="text-3xl font-semibold tracking-tight text-zinc-900 dark:text-white">{t('title')}</h1>
          <p className="mt-2 max-w-3xl text-zinc-600 dark:text-zinc-400">{t('subtitle')}</p>
          <a href="/api/openapi.json" className="mt-2 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            {t('document')}
          </a>
        </header>
        <Basics baseUrl={baseUrl} signedIn={loaderData.signedIn} />
        {tags.map((tag) => (
          <section key={tag.tag} id={tag.tag} aria-labelledby={`${tag.tag}-title`} className="scroll-mt-20" data-testid={`tag-${tag.tag}`}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id={`${tag.tag}-title`} className="text-xl font-semibold text-zinc-900 dark:text-white">
                <Link to={`/api/docs/${tag.tag}`} className="hover:underline">
                  {title(tag.tag)}
                </Link>
              </h2>
              <span className="text-sm text-zinc-500 dark:text-zinc-400">{t('count', { count: tag.operations.length })}</span>
            </div>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t(`tags.${tag.tag}.description` as 'tags.health.description', { defaultValue: '' })}</p>
            <ul className="mt-3 divide-y divide-zinc-100 overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-sm dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
              {tag.operations.map((operation) => (
                <li key={operation.id} data-testid={`call-${operation.id}`}>
                  <Link
                    to={`/api/docs/${tag.tag}#${operation.id}`}
                    className="flex flex-col gap-1.5 px-4 py-3 hover:bg-zinc-50 sm:flex-row sm:items-center sm:gap-3 dark:hover:bg-zinc-800/60"
                  >
                    <span className="flex min-w-0 items-center gap-2 sm:w-[22rem] sm:shrink-0">
                      <MethodBadge method={operation.method} />
                      <code className="min-w-0 font-mono text-[13px] break-all text-zinc-900 dark:text-zinc-100">{operation.path}</code>
                    </span>
                    <span className="min-w-0 flex-1 text-sm text-zinc-700 dark:text-zinc-300">{summary(operation)}</span>
                    <span className="shrink-0">
                      <AuthBadge auth={operation.auth} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </main>
  )
}

function Basics({ baseUrl, signedIn }: { baseUrl: string; signedIn: boolean }) {
  const { t } = useTranslation('apidocs')
  const setup = [
    `export RELAY_API_KEY='sk-relay-…'`,
    `export RELAY_TOKEN="$(curl -sS '${baseUrl}/api/user/login' -H 'Content-Type: application/json' \\`,
    `  -d '{"username":"alice","password":"…"}' | jq -r .data.access_token)"`,
  ].join('\n')
  return (
    <Card aria-labelledby="basics-title" data-testid="docs-basics">
      <CardTitle id="basics-title">{t('basics.title')}</CardTitle>
      <dl className="mt-3 text-sm">
        <dt className="text-zinc-500 dark:text-zinc-400">{t('basics.baseUrl')}</dt>
        <dd className="mt-0.5 font-mono font-semibold break-all text-zinc-900 dark:text-zinc-100" data-testid="base-url">
          {baseUrl}
        </dd>
      </dl>
      <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
        <li>{t('basics.envelope')}</li>
        <li>{t('basics.ids')}</li>
        <li>{t('basics.language')}</li>
        <li>{t('basics.token')}</li>
        <li>
          {signedIn ? t('basics.apiKeySignedIn') : t('basics.apiKeySignedOut')}{' '}
          <Link to={signedIn ? '/api-keys' : '/auth/register'} className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            {signedIn ? t('basics.apiKeysLink') : t('basics.registerLink')}
          </Link>
        </li>
      </ul>
      <div className="mt-4">
        <CodeBlock code={setup} copyText={t('copy')} copyLabel={t('basics.setup')} />
      </div>
    </Card>
  )
}
