/**
 * The consent screens `/auth/oauth-authorize` and `/auth/sso-authorize` (docs/product.md; docs/architecture.md §6):
 * one module registered under both paths. The request comes in the query string; the screen
 * names the client, lists the permissions asked for, and posts the user's decision. Both answers
 * send the browser back to the client's registered redirect URI, which the relay builds. An
 * unknown client, an unregistered redirect URI or a malformed request shows an error and never
 * redirects. The SSO screen serves first-party clients only. See docs/decisions/061-device-codes-and-consent.md.
 */
import { useTranslation, Trans } from 'react-i18next'
import { data, Form, Link, redirect, type RouterContextProvider } from 'react-router'
import type { Route } from './+types/oauth-authorize'
import { endpoints, oauthScreens, type AuthorizeResult, type ClientInfo } from '#relay/contract/index.ts'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ClientHeading, ClientName, PermissionList } from '#app/components/oauth/consent-parts.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, requireSession } from '#app/middleware/session.server.ts'
import { consentDecisionSchema, consentRequestSchema, type ConsentRequest } from '#app/schemas/oauth.ts'
import { relayErrorKey } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'

type Checked = { problem: string } | { consent: ConsentRequest; client: ClientInfo }

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

function isSso(request: Request): boolean {
  return new URL(request.url).pathname.replace(/\/$/, '') === oauthScreens.sso
}

/** The request in the query string, checked by the relay: the client, its redirect URI, the scope. */
async function checkRequest(request: Request, context: Readonly<RouterContextProvider>): Promise<Checked> {
  const parsed = consentRequestSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) return { problem: 'oauth:invalid.request' }
  const { client_id, redirect_uri, scope } = parsed.data
  try {
    const client = await getRelay(context).call(endpoints.oauth.client, { query: { client_id, redirect_uri, scope } })
    if (isSso(request) && !client.first_party) return { problem: 'oauth:invalid.notSso' }
    return { consent: parsed.data, client }
  } catch (error) {
    // Refusals are shown; an unreachable relay is rethrown as the 503 page that keeps the session.
    if (error instanceof RelayCallError) return { problem: relayErrorKey(error) }
    throw error
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireSession(request, context)
  const t = getI18n(context).t
  const sso = isSso(request)
  const title = sso ? t('oauth:consent.ssoTitle') : t('oauth:consent.oauthTitle')
  const [checked, info] = await Promise.all([checkRequest(request, context), getRelay(context).call(endpoints.accounts.info)])
  if ('problem' in checked) return data({ title, sso, problem: checked.problem, consent: null }, { status: 400 })
  return {
    title,
    sso,
    problem: null,
    consent: {
      client: checked.client,
      username: info.user.username,
      origin: new URL(checked.consent.redirect_uri).origin,
    },
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  requireSession(request, context)
  const decision = consentDecisionSchema.safeParse((await request.formData()).get('intent'))
  const checked = await checkRequest(request, context)
  if ('problem' in checked) return data({ problem: checked.problem }, { status: 400 })
  if (!decision.success) return data({ problem: 'oauth:invalid.request' }, { status: 400 })
  let result: AuthorizeResult
  try {
    result = await getRelay(context).call(endpoints.oauth.authorize, { body: { ...checked.consent, decision: decision.data } })
  } catch (error) {
    if (error instanceof RelayCallError) return data({ problem: relayErrorKey(error) }, { status: error.status })
    throw error
  }
  // The browser leaves for the client, so no toast: it would only show on the next portal visit.
  if (!result.redirect_to) return data({ problem: 'oauth:invalid.request' }, { status: 400 })
  return redirect(result.redirect_to)
}

export default function OAuthAuthorize({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('oauth')
  const problem = actionData?.problem ?? loaderData.problem
  const consent = loaderData.consent
  if (problem || !consent) return <InvalidRequest title={loaderData.title} problem={problem ?? 'oauth:invalid.request'} />
  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-xl font-bold tracking-tight">{loaderData.title}</h1>
      <div className="mt-5">
        <ClientHeading name={consent.client.name} firstParty={consent.client.first_party}>
          <Trans
            t={t}
            i18nKey={loaderData.sso ? 'consent.ssoWantsAccess' : 'consent.wantsAccess'}
            values={{ client: consent.client.name }}
            components={{ client: <ClientName /> }}
          />
        </ClientHeading>
      </div>
      <p className="mt-6 mb-2 text-sm font-medium text-zinc-700 dark:text-zinc-300">{t('consent.permissions')}</p>
      <PermissionList scopes={consent.client.scopes} />
      <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400" data-testid="grant-lifetime">
        {t('consent.lasts', { count: consent.client.grant_days })}
      </p>
      <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
        <Trans
          t={t}
          i18nKey="consent.signedInAs"
          values={{ username: consent.username }}
          components={{ user: <span className="font-medium text-zinc-900 dark:text-zinc-100" /> }}
        />
      </p>
      <Form method="post" className="mt-6 grid grid-cols-2 gap-3">
        <SubmitButton intent="deny" variant="secondary">
          {t('consent.deny')}
        </SubmitButton>
        <SubmitButton intent="approve">{t('consent.authorize')}</SubmitButton>
      </Form>
      <p className="mt-4 text-xs break-words text-zinc-500 dark:text-zinc-400">{t('consent.redirectNote', { origin: consent.origin })}</p>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">{t('consent.trustNote')}</p>
    </Card>
  )
}

function InvalidRequest({ title, problem }: { title: string; problem: string }) {
  const { t } = useTranslation('oauth')
  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-xl font-bold tracking-tight">{title}</h1>
      <Notice tone="error" className="mt-5">
        <p className="font-medium">{t('invalid.title')}</p>
        <p className="mt-1">{t(problem as 'invalid.request', { defaultValue: problem })}</p>
      </Notice>
      <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{t('invalid.body')}</p>
      <Link to="/dashboard" className={buttonClass({ variant: 'secondary', className: 'mt-6 w-full' })}>
        {t('invalid.dashboard')}
      </Link>
    </Card>
  )
}
