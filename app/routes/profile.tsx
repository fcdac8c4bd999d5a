/**
 * The profile screen (docs/product.md "Profile"): the user's details with an edit form, the resource
 * links (visit, copy, refresh, count, last updated), the way to the security page and the
 * change-password dialog. The dialog
 * is a disclosure the server can render open (`?dialog=password`, or after a refused change), so
 * it is a real form with or without JavaScript.
 */
import { ExternalLink, Link2, RefreshCw, ShieldCheck } from 'lucide-react'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/profile'
import { bounds, endpoints, type ResourceLink, type ResourceList, type User } from '#relay/contract/index.ts'
import { CopyButton } from '#app/components/copy-button.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { inputClass } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, replaceTokens } from '#app/middleware/session.server.ts'
import { changePasswordSchema, profileSchema } from '#app/schemas/profile.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { optionalRead } from '#app/utils/optional-read.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const relay = getRelay(context)
  const [info, resources] = await Promise.all([
    relay.call(endpoints.accounts.info),
    // docs/product.md, Messages "fetch resources failed (try later)": that card says so, the rest of the page stands.
    optionalRead(relay.call(endpoints.resources.list)),
  ])
  const passwordOpen = new URL(request.url).searchParams.get('dialog') === 'password'
  return { title: getI18n(context).t('profile:title'), user: info.user, resources, passwordOpen }
}

const secretFields = ['oldPassword', 'newPassword', 'confirmPassword']

/** Two forms share the action: the reply says which one it answers, so only that one shows it. */
function forIntent<T extends object>(intent: 'profile' | 'password', reply: { data: T; init: ResponseInit | null }) {
  return data({ intent, ...reply.data }, reply.init ?? undefined)
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const relay = getRelay(context)
  if (formData.get('intent') === 'password') {
    const submission = parseWithZod(formData, { schema: changePasswordSchema })
    if (submission.status !== 'success') return forIntent('password', invalid(submission, secretFields))
    try {
      const tokens = await relay.call(endpoints.accounts.password, {
        body: { old_password: submission.value.oldPassword, new_password: submission.value.newPassword },
      })
      // The relay ended every session, this one included; its fresh tokens keep this one going.
      await replaceTokens(context, tokens)
    } catch (error) {
      return forIntent('password', relayRefusal(submission, error, { hideFields: secretFields, fieldOf: { old_password_wrong: 'oldPassword' } }))
    }
    return redirectWithToast('/profile', { type: 'success', key: 'profile:password.changed' })
  }

  const submission = parseWithZod(formData, { schema: profileSchema })
  if (submission.status !== 'success') return forIntent('profile', invalid(submission))
  const v = submission.value
  try {
    // An emptied field arrives as undefined: send '' so the relay clears it.
    await relay.call(endpoints.accounts.profile, { body: { name: v.name ?? '', phone: v.phone ?? '', company: v.company ?? '', avatar: v.avatar ?? '' } })
  } catch (error) {
    return forIntent('profile', relayRefusal(submission, error, { failed: 'profile:edit.failed' }))
  }
  return redirectWithToast('/profile', { type: 'success', key: 'profile:edit.saved' })
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const { t: tn } = useTranslation('notifications')
  const { user, resources } = loaderData
  const passwordResult = actionData?.intent === 'password' ? actionData.result : undefined
  const profileResult = actionData?.intent === 'profile' ? actionData.result : undefined
  return (
    <div className="space-y-6">
      <PageHeader
        title={loaderData.title}
        subtitle={t('subtitle')}
        actions={
          <Link to="/profile/notifications" className={buttonClass({ variant: 'secondary' })}>
            {tn('link')}
          </Link>
        }
      />
      <AccountCard user={user} />
      <div className="grid gap-6 lg:grid-cols-3">
        <ResourcesCard resources={resources} className="h-fit lg:col-span-2" />
        <div className="space-y-6">
          <SecurityLinkCard />
          <PasswordCard lastResult={passwordResult} open={loaderData.passwordOpen || passwordResult !== undefined} />
          <EditProfileCard user={user} lastResult={profileResult} />
        </div>
      </div>
    </div>
  )
}

function Avatar({ user }: { user: User }) {
  const { t } = useTranslation('profile')
  const display = user.name || user.username
  // The CSP admits https images only; anything else falls back to the initial.
  if (user.avatar?.startsWith('https://')) {
    return (
      <img
        src={user.avatar}
        alt={t('account.avatarAlt', { name: display })}
        referrerPolicy="no-referrer"
        className="size-16 shrink-0 rounded-full object-cover ring-1 ring-zinc-200 dark:ring-zinc-700"
      />
    )
  }
  return (
    <span
      role="img"
      aria-label={t('account.avatarAlt', { name: display })}
      className="grid size-16 shrink-0 place-items-center rounded-full bg-indigo-600 text-2xl font-semibold text-white dark:bg-indigo-500"
    >
      {display.slice(0, 1).toUpperCase()}
    </span>
  )
}

function AccountCard({ user }: { user: User }) {
  const { t } = useTranslation('profile')
  const { t: tc } = useTranslation()
  const optional = (value: string | null) => value || <span className="text-zinc-400 dark:text-zinc-500">{t('account.notSet')}</span>
  const rows: Array<[string, React.ReactNode]> = [
    [t('account.email'), user.email],
    [t('account.userType'), tc(`userType.${user.user_type}`, { defaultValue: user.user_type })],
    [t('account.name'), optional(user.name)],
    [t('account.phone'), optional(user.phone)],
    [t('account.company'), optional(user.company)],
    [t('account.created'), <LocalTime ms={user.create_timestamp} />],
    [t('account.lastLogin'), user.last_login_timestamp === null ? t('account.never') : <LocalTime ms={user.last_login_timestamp} />],
  ]
  return (
    <Card aria-labelledby="account-title" data-testid="account">
      <div className="flex items-center gap-4">
        <Avatar user={user} />
        <div className="min-w-0">
          <h2 id="account-title" className="text-lg font-semibold break-words text-zinc-900 dark:text-zinc-100">
            {user.name || user.username}
          </h2>
          <p className="text-sm break-all text-zinc-500 dark:text-zinc-400">
            <span className="sr-only">{t('account.username')}: </span>@{user.username}
          </p>
        </div>
      </div>
      <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
            <dd className="mt-0.5 font-medium break-words text-zinc-900 dark:text-zinc-100">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  )
}

function EditProfileCard({ user, lastResult }: { user: User; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('profile')
  const [form, fields] = useZodForm(profileSchema, { id: 'profile-form', lastResult, defaultValue: { name: user.name ?? '', phone: user.phone ?? '', company: user.company ?? '', avatar: user.avatar ?? '' } })
  return (
    <Card aria-labelledby="edit-title">
      <CardTitle id="edit-title">{t('edit.title')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.name} label={t('edit.name')} maxLength={bounds.name.max} autoComplete="name" />
        <Field meta={fields.phone} label={t('edit.phone')} type="tel" maxLength={bounds.phone.max} autoComplete="tel" />
        <Field meta={fields.company} label={t('edit.company')} maxLength={bounds.company.max} autoComplete="organization" />
        <Field meta={fields.avatar} label={t('edit.avatar')} type="url" hint={t('edit.avatarHint')} maxLength={bounds.avatar.max} />
        <SubmitButton intent="profile" className="w-full">
          {t('edit.submit')}
        </SubmitButton>
      </Form>
    </Card>
  )
}

/** Where the security settings are: two-factor sign-in, sessions, sign-in history, grants. */
function SecurityLinkCard() {
  const { t } = useTranslation('profile')
  return (
    <Card aria-labelledby="security-link-title">
      <CardTitle id="security-link-title">{t('security.profileCard.title')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{t('security.profileCard.body')}</p>
      <Link to="/profile/security" className={buttonClass({ variant: 'secondary', className: 'mt-4 w-full' })} data-testid="security-link">
        <ShieldCheck className="size-4" />
        {t('security.profileCard.open')}
      </Link>
    </Card>
  )
}

function PasswordCard({ lastResult, open }: { lastResult?: SubmissionResult<string[]>; open: boolean }) {
  const { t } = useTranslation('profile')
  const [form, fields] = useZodForm(changePasswordSchema, { id: 'password-form', lastResult })
  return (
    <Card aria-labelledby="password-title">
      <CardTitle id="password-title">{t('password.title')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{t('password.subtitle')}</p>
      <details id="change-password" open={open} className="group mt-4">
        <summary
          className={buttonClass({ variant: 'secondary', className: 'w-full cursor-pointer list-none group-open:hidden [&::-webkit-details-marker]:hidden' })}
          data-testid="password-open"
        >
          {t('password.open')}
        </summary>
        <Form method="post" {...getFormProps(form)} aria-labelledby="password-title" className="space-y-4" role="dialog">
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field meta={fields.oldPassword} label={t('password.oldPassword')} type="password" autoComplete="current-password" />
          <Field
            meta={fields.newPassword}
            label={t('password.newPassword')}
            type="password"
            autoComplete="new-password"
            hint={t('password.newPasswordHint')}
          />
          <Field meta={fields.confirmPassword} label={t('password.confirmPassword')} type="password" autoComplete="new-password" />
          <div className="flex gap-2">
            <Link to="/profile" className={buttonClass({ variant: 'secondary', className: 'flex-1' })} preventScrollReset>
              {t('password.cancel')}
            </Link>
            <SubmitButton intent="password" className="flex-1">
              {t('password.submit')}
            </SubmitButton>
          </div>
        </Form>
      </details>
    </Card>
  )
}

function ResourcesCard({ resources, className }: { resources: ResourceList | null; className?: string }) {
  const { t } = useTranslation('profile')
  const navigation = useNavigation()
  const refreshing = navigation.state === 'loading' && navigation.location.pathname === '/profile'
  return (
    <Card aria-labelledby="resources-title" id="resources" aria-busy={refreshing || undefined} className={className}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle id="resources-title">{t('resources.title')}</CardTitle>
          {resources ? (
            <p className="mt-1 text-sm text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="resources-meta">
              {t('resources.count', { count: resources.count })} · {t('resources.lastUpdated')}{' '}
              {resources.last_updated_timestamp === null ? t('resources.never') : <LocalTime ms={resources.last_updated_timestamp} />}
            </p>
          ) : null}
        </div>
        {/* A refresh is a read: a GET form reloads this page's data with or without JavaScript. */}
        <Form method="get" action="/profile" preventScrollReset>
          <button type="submit" className={buttonClass({ variant: 'secondary', size: 'sm' })}>
            <RefreshCw className={cn('size-4', refreshing && 'animate-spin')} />
            {t('resources.refresh')}
          </button>
        </Form>
      </div>
      {resources === null ? (
        <Notice tone="error" className="mt-4" data-testid="resources-failed">
          {t('resources.failed')}
        </Notice>
      ) : resources.items.length === 0 ? (
        <EmptyState
          icon={Link2}
          title={t('resources.empty')}
          body={t('resources.emptyBody')}
          testId="resources-empty"
          className="mt-4"
        />
      ) : (
        <ul className={cn('mt-4 divide-y divide-zinc-100 transition-opacity dark:divide-zinc-800', refreshing && 'opacity-60')}>
          {resources.items.map((link) => (
            <ResourceItem key={link.id} link={link} />
          ))}
        </ul>
      )}
    </Card>
  )
}

function ResourceItem({ link }: { link: ResourceLink }) {
  const { t } = useTranslation('profile')
  const inputId = `resource-${link.id}`
  return (
    <li className="space-y-2 py-4 first:pt-0 last:pb-0" data-testid="resource">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-medium break-words text-zinc-900 dark:text-zinc-100">{link.title}</h3>
          {link.description ? <p className="mt-0.5 text-sm break-words text-zinc-500 dark:text-zinc-400">{link.description}</p> : null}
        </div>
        <a href={link.url} target="_blank" rel="noopener noreferrer" className={buttonClass({ variant: 'ghost', size: 'sm', className: 'shrink-0 text-indigo-600 dark:text-indigo-400' })}>
          {t('resources.visit')}
          <ExternalLink className="size-3.5" />
          <span className="sr-only">{t('resources.opensInNewTab')}</span>
        </a>
      </div>
      <div className="flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          {t('resources.urlLabel', { title: link.title })}
        </label>
        {/* Without JavaScript there is no copy button: the address is selectable here. */}
        <input
          id={inputId}
          readOnly
          value={link.url}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(inputClass, 'min-w-0 font-mono text-xs')}
        />
        <CopyButton text={link.url} label={t('resources.copyNamed', { title: link.title })}>
          {t('resources.copy')}
        </CopyButton>
      </div>
    </li>
  )
}
