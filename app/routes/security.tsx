/**
 * The security page (docs/decisions/099-sign-in.md): two-factor sign-in (on, off, recovery codes left), the
 * sessions signed in with a sign-out for each or all others, the latest sign-in attempts, the
 * grants of external clients with revoke, and the API keys' creations and deletions. Every
 * button is a form, so it all works without JavaScript.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { AppWindow, History, KeyRound, MonitorSmartphone } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { Route } from './+types/security'
import { endpoints, type AccountGrant, type AccountSession, type KeyEvent, type SecurityOverview, type SignInEvent } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { disableTwoFactorSchema, rowIdSchema } from '#app/schemas/security.ts'
import { deviceName } from '#relay/contract/device-name.ts'
import { invalid, relayErrorKey, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const overview = await getRelay(context).call(endpoints.security.overview)
  const disableOpen = new URL(request.url).searchParams.get('dialog') === 'disable'
  return { title: getI18n(context).t('profile:security.title'), overview, disableOpen }
}

const page = '/profile/security'

/** A sign-out or revocation: its outcome is a toast on the page it returns to. */
async function rowAction(formData: FormData, act: (id: string) => Promise<unknown>, done: string): Promise<Response> {
  const parsed = rowIdSchema.safeParse({ id: formData.get('id') })
  if (!parsed.success) return redirectWithToast(page, { type: 'error', key: 'errors:reason.not_found' })
  try {
    await act(parsed.data.id)
  } catch (error) {
    if (error instanceof RelayCallError) return redirectWithToast(page, { type: 'error', key: relayErrorKey(error) })
    throw error
  }
  return redirectWithToast(page, { type: 'success', key: done })
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const relay = getRelay(context)
  const intent = formData.get('intent')
  if (intent === 'end-session') {
    return rowAction(formData, (id) => relay.call(endpoints.security.endSession, { params: { id } }), 'profile:security.sessions.ended')
  }
  if (intent === 'revoke-grant') {
    return rowAction(formData, (id) => relay.call(endpoints.security.revokeGrant, { params: { id } }), 'profile:security.grants.revoked')
  }
  if (intent === 'end-others') {
    const { ended } = await relay.call(endpoints.security.endOtherSessions)
    return redirectWithToast(page, { type: 'success', key: 'profile:security.sessions.othersEnded', values: { count: ended } })
  }
  const submission = parseWithZod(formData, { schema: disableTwoFactorSchema })
  if (submission.status !== 'success') return invalid(submission, ['password', 'code'])
  try {
    await relay.call(endpoints.security.disableTwoFactor, { body: submission.value })
  } catch (error) {
    return relayRefusal(submission, error, { hideFields: ['password', 'code'], fieldOf: { old_password_wrong: 'password', two_factor_invalid: 'code' } })
  }
  return redirectWithToast(page, { type: 'success', key: 'profile:security.twoFactor.disabled' })
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const { overview } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('security.subtitle')} />
      <TwoFactorCard status={overview.two_factor} lastResult={actionData?.result} open={loaderData.disableOpen || actionData !== undefined} />
      <SessionsCard sessions={overview.sessions} />
      <div className="grid gap-6 xl:grid-cols-2">
        <GrantsCard grants={overview.grants} />
        <KeyEventsCard events={overview.key_events} />
      </div>
      <SignInsCard signIns={overview.sign_ins} />
    </div>
  )
}

function Muted({ children }: { children: React.ReactNode }) {
  return <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{children}</p>
}

function TwoFactorCard({ status, lastResult, open }: { status: SecurityOverview['two_factor']; lastResult?: SubmissionResult<string[]>; open: boolean }) {
  const { t } = useTranslation('profile')
  const [form, fields] = useZodForm(disableTwoFactorSchema, { id: 'disable-form', lastResult })
  return (
    <Card aria-labelledby="two-factor-title" data-testid="two-factor">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <div className="flex items-center gap-2">
            <CardTitle id="two-factor-title">{t('security.twoFactor.title')}</CardTitle>
            <Badge tone={status.enabled ? 'green' : 'zinc'} data-testid="two-factor-state">
              {status.enabled ? t('security.twoFactor.on') : t('security.twoFactor.off')}
            </Badge>
          </div>
          <Muted>{status.enabled ? t('security.twoFactor.bodyOn') : t('security.twoFactor.bodyOff')}</Muted>
          {status.enabled ? (
            <p className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
              <span className="font-medium text-zinc-700 tabular-nums dark:text-zinc-300">{t('security.twoFactor.codesLeft', { count: status.recovery_codes_left })}</span>
              <Link to="/profile/security/two-factor" className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400" data-testid="replace-recovery-codes">
                {t('security.regenerate.manage')}
              </Link>
            </p>
          ) : null}
        </div>
        {status.enabled ? null : (
          <Form method="post" action="/profile/security/two-factor">
            <SubmitButton intent="start">{t('security.twoFactor.enable')}</SubmitButton>
          </Form>
        )}
      </div>
      {status.enabled ? (
        <details open={open} className="group mt-4">
          <summary
            className={buttonClass({ variant: 'secondary', className: 'cursor-pointer list-none group-open:hidden [&::-webkit-details-marker]:hidden' })}
            data-testid="disable-open"
          >
            {t('security.twoFactor.disableOpen')}
          </summary>
          <Form method="post" {...getFormProps(form)} aria-label={t('security.twoFactor.disableTitle')} className="max-w-sm space-y-4">
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field meta={fields.password} label={t('security.twoFactor.password')} type="password" autoComplete="current-password" />
            <Field meta={fields.code} label={t('security.twoFactor.code')} autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} />
            <div className="flex gap-2">
              <Link to={page} className={buttonClass({ variant: 'secondary', className: 'flex-1' })} preventScrollReset>
                {t('security.twoFactor.cancel')}
              </Link>
              <SubmitButton intent="disable" variant="danger" className="flex-1">
                {t('security.twoFactor.disableSubmit')}
              </SubmitButton>
            </div>
          </Form>
        </details>
      ) : null}
    </Card>
  )
}

/** The device a user agent names, or "unknown device". */
function Device({ userAgent }: { userAgent: string }) {
  const { t } = useTranslation('profile')
  return <>{deviceName(userAgent) ?? t('security.sessions.unknownDevice')}</>
}

function SessionsCard({ sessions }: { sessions: AccountSession[] }) {
  const { t } = useTranslation('profile')
  const others = sessions.some((session) => !session.current)
  return (
    <Card aria-labelledby="sessions-title" data-testid="sessions">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <CardTitle id="sessions-title">{t('security.sessions.title')}</CardTitle>
          <Muted>{t('security.sessions.subtitle')}</Muted>
        </div>
        {others ? (
          <Form method="post">
            <SubmitButton intent="end-others" variant="secondary" size="sm">
              {t('security.sessions.endOthers')}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      <ul className="mt-4 divide-y divide-zinc-100 dark:divide-zinc-800">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="session">
            <div className="flex min-w-0 items-start gap-3">
              <MonitorSmartphone className="mt-0.5 size-5 shrink-0 text-zinc-400" />
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-900 dark:text-zinc-100">
                  <Device userAgent={session.user_agent} />
                  {session.current ? <Badge tone="indigo">{t('security.sessions.current')}</Badge> : null}
                </p>
                {/* Each fact wraps as a whole on a phone. */}
                <p className="mt-0.5 flex flex-wrap gap-x-3 text-sm text-zinc-500 tabular-nums dark:text-zinc-400">
                  <span className="break-all">{session.client_ip}</span>
                  <span className="whitespace-nowrap">
                    {t('security.sessions.lastSeen')} <LocalTime ms={session.last_seen_timestamp} />
                  </span>
                  <span className="whitespace-nowrap">
                    {t('security.sessions.signedIn')} <LocalTime ms={session.create_timestamp} />
                  </span>
                </p>
              </div>
            </div>
            {session.current ? null : (
              <Form method="post">
                <input type="hidden" name="id" value={session.id} />
                <SubmitButton intent="end-session" variant="secondary" size="sm" aria-label={t('security.sessions.endNamed', { device: deviceName(session.user_agent) ?? t('security.sessions.unknownDevice') })}>
                  {t('security.sessions.end')}
                </SubmitButton>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </Card>
  )
}

function GrantsCard({ grants }: { grants: AccountGrant[] }) {
  const { t } = useTranslation('profile')
  const { t: to } = useTranslation('oauth')
  return (
    <Card aria-labelledby="grants-title" data-testid="grants">
      <CardTitle id="grants-title">{t('security.grants.title')}</CardTitle>
      <Muted>{t('security.grants.subtitle')}</Muted>
      {grants.length === 0 ? (
        <EmptyState icon={AppWindow} title={t('security.grants.empty')} className="mt-4" />
      ) : (
        <ul className="mt-4 divide-y divide-zinc-100 dark:divide-zinc-800">
          {grants.map((grant) => (
            <li key={grant.id} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="grant">
              <div className="min-w-0">
                <p className="font-medium break-words text-zinc-900 dark:text-zinc-100">{grant.client_name}</p>
                <p className="mt-0.5 text-sm text-zinc-500 dark:text-zinc-400">{grant.scopes.map((scope) => to(`scopes.${scope}.title`)).join(' · ')}</p>
                <p className="mt-0.5 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
                  {t('security.grants.lastUsed')} <LocalTime ms={grant.last_used_timestamp} />
                  {grant.expires_timestamp === null ? null : (
                    <>
                      {' · '}
                      {t('security.grants.expires')} <LocalTime ms={grant.expires_timestamp} dateOnly />
                    </>
                  )}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="id" value={grant.id} />
                <SubmitButton intent="revoke-grant" variant="secondary" size="sm" aria-label={t('security.grants.revokeNamed', { app: grant.client_name })}>
                  {t('security.grants.revoke')}
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function KeyEventsCard({ events }: { events: KeyEvent[] }) {
  const { t } = useTranslation('profile')
  return (
    <Card aria-labelledby="keys-title" data-testid="key-events">
      <CardTitle id="keys-title">{t('security.keys.title')}</CardTitle>
      <Muted>{t('security.keys.subtitle')}</Muted>
      {events.length === 0 ? (
        <EmptyState icon={KeyRound} title={t('security.keys.empty')} className="mt-4" />
      ) : (
        <Table
          className="mt-4"
          caption={t('security.keys.title')}
          columns={[
            { id: 'time', label: t('security.keys.time') },
            { id: 'event', label: t('security.keys.event') },
            { id: 'key', label: t('security.keys.key') },
          ]}
        >
          {events.map((event) => (
            <tr key={`${event.key_id}-${event.kind}`}>
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
                <LocalTime ms={event.timestamp} />
              </td>
              <td className="py-2 pr-3">
                <Badge tone={event.kind === 'created' ? 'green' : 'zinc'}>{t(`security.keys.${event.kind}`)}</Badge>
              </td>
              <td className="py-2 break-words">
                {event.name} <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">…{event.last4}</span>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  )
}

/** A recovery code stands out: the owner should know one of theirs was spent. */
const signInTones = { success: 'green', recovery_code: 'amber', password: 'red', two_factor: 'red' } as const satisfies Record<SignInEvent['outcome'], BadgeTone>

function SignInsCard({ signIns }: { signIns: SignInEvent[] }) {
  const { t } = useTranslation('profile')
  return (
    <Card aria-labelledby="sign-ins-title" data-testid="sign-ins">
      <CardTitle id="sign-ins-title">{t('security.signIns.title')}</CardTitle>
      <Muted>{t('security.signIns.subtitle')}</Muted>
      {signIns.length === 0 ? (
        <EmptyState icon={History} title={t('security.signIns.empty')} className="mt-4" />
      ) : (
        <Table
          className="mt-4"
          caption={t('security.signIns.title')}
          columns={[
            { id: 'time', label: t('security.signIns.time') },
            { id: 'result', label: t('security.signIns.result') },
            { id: 'ip', label: t('security.signIns.ip') },
            { id: 'device', label: t('security.signIns.device') },
          ]}
        >
          {signIns.map((event) => (
            <tr key={event.id} data-testid="sign-in">
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
                <LocalTime ms={event.timestamp} />
              </td>
              <td className="py-2 pr-3">
                <Badge tone={signInTones[event.outcome]}>{t(`security.signIns.outcome.${event.outcome}`)}</Badge>
              </td>
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums">{event.client_ip}</td>
              <td className="py-2 whitespace-nowrap">
                <Device userAgent={event.user_agent} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  )
}
