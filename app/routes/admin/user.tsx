/**
 * One user for an operator: account, points and package, latest ledger rows, API keys and
 * tickets; change their type, disable or enable them, grant or deduct points with a reason, start
 * a trial package for a user who holds none, and read their own pages as they see them (read-only,
 * docs/console.md). An admin's own page shows the facts but not the type and status forms (the
 * relay refuses those too).
 */
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Eye } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useLocation, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/user'
import { endpoints, pointsAdjustments, pointsReasons, trialBody, userTypes, type AdminUserDetail, type ViewAs } from '#relay/contract/index.ts'
import { UserStatusBadge } from '#app/components/admin/user-status-badge.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { NotFoundCard } from '#app/components/not-found-card.tsx'
import { TicketStatusBadge } from '#app/components/tickets/ticket-labels.tsx'
import { BarChart } from '#app/components/charts/bar-chart.tsx'
import { dayLabel } from '#app/components/charts/bars.ts'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay, startViewAs } from '#app/middleware/session.server.ts'
import { adjustPointsSchema, userKeysSchema, userStatusSchema, userTypeSchema } from '#app/schemas/admin.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import type { loader as layoutLoader } from './layout.tsx'
import { badForm, operatorOutcome } from './outcome.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const t = getI18n(context).t
  try {
    const relay = getRelay(context)
    const detail = await relay.call(endpoints.admin.user, { params: { id: params.id } })
    // Without a package a grant has no account to go to: the page offers a trial package instead.
    const trialPackages = detail.points.package ? [] : (await relay.call(endpoints.admin.packages)).items.filter((pkg) => pkg.kind === 'personal')
    const formKeys = { points: newFormKey(), trial: newFormKey(), view: newFormKey() }
    return { title: `${detail.user.username} · ${t('admin:title')}`, detail, trialPackages, formKeys }
  } catch (error) {
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) {
      return data({ title: t('admin:user.notFound'), detail: null, trialPackages: [], formKeys: null }, { status: 404 })
    }
    throw error
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const back = `/admin/users/${params.id}`
  const relay = getRelay(context)
  const formData = await request.formData()
  const id = { id: params.id }
  switch (formData.get('intent')) {
    case 'type': {
      const parsed = userTypeSchema.safeParse({ user_type: formData.get('user_type') })
      if (!parsed.success) return badForm(back)
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.admin.setUserType, { params: id, body: parsed.data })
        return { type: 'success', key: 'admin:toast.typeChanged' }
      })
    }
    case 'status': {
      const parsed = userStatusSchema.safeParse({ status: formData.get('status') })
      if (!parsed.success) return badForm(back)
      return operatorOutcome(back, async () => {
        await relay.call(endpoints.admin.setUserStatus, { params: id, body: parsed.data })
        return { type: 'success', key: parsed.data.status === 'disabled' ? 'admin:toast.disabled' : 'admin:toast.enabled' }
      })
    }
    case 'keys-disable':
    case 'keys-enable': {
      const parsed = userKeysSchema.safeParse({ key_ids: formData.getAll('key_id') })
      if (!parsed.success) return redirectWithToast(back, { type: 'error', key: 'admin:toast.noKeysChosen' })
      const enabled = formData.get('intent') === 'keys-enable'
      return operatorOutcome(back, async () => {
        // Setting a state, not toggling it: a reload or a second click changes nothing more.
        const { changed } = await relay.call(endpoints.admin.setUserKeys, { params: id, body: { ...parsed.data, enabled } })
        return { type: 'success', key: enabled ? 'admin:toast.keysEnabled' : 'admin:toast.keysDisabled', values: { count: changed } }
      })
    }
    case 'points': {
      const submission = parseWithZod(formData, { schema: adjustPointsSchema })
      if (submission.status !== 'success') return invalid(submission)
      let balance: number
      try {
        // A repeated post of the same form (reload, double click) moves the points once.
        ;({ balance } = await relay.call(endpoints.admin.adjustPoints, { params: id, body: submission.value, ...formKeyOf(formData) }))
      } catch (error) {
        return relayRefusal(submission, error, { failed: 'admin:failed' })
      }
      const key = submission.value.direction === 'grant' ? 'admin:toast.granted' : 'admin:toast.deducted'
      return redirectWithToast(back, { type: 'success', key, values: { balance } })
    }
    case 'trial': {
      const parsed = trialBody.safeParse({ package_code: formData.get('package_code') })
      if (!parsed.success) return badForm(back)
      return operatorOutcome(back, async () => {
        // The form's key: a double click starts one package.
        const trial = await relay.call(endpoints.admin.grantTrial, { params: id, body: parsed.data, ...formKeyOf(formData) })
        return { type: 'success', key: 'admin:toast.trialStarted', values: { points: trial.points } }
      })
    }
    case 'view-as': {
      let view: ViewAs
      try {
        // One audit row per start, however often the button is pressed.
        view = await relay.call(endpoints.admin.viewAs, { params: id, ...formKeyOf(formData) })
      } catch (error) {
        return operatorOutcome(back, () => Promise.reject(error))
      }
      await startViewAs(context, view)
      return redirect('/dashboard')
    }
    default:
      return badForm(back)
  }
}

export default function AdminUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const operator = useRouteLoaderData<typeof layoutLoader>('routes/admin/layout')?.user
  const { detail, formKeys } = loaderData
  if (!detail || !formKeys) return <NotFoundCard title={t('user.notFound')} back="/admin/users" backLabel={t('user.back')} data-testid="admin-user-not-found" />
  const self = operator?.id === detail.user.id
  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <BackLink to="/admin/users">{t('user.back')}</BackLink>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-bold tracking-tight break-all sm:text-2xl">{detail.user.username}</h1>
          <UserStatusBadge status={detail.user.status} />
          {detail.user.status === 'active' && !self ? <ViewAsForm formKey={formKeys.view} /> : null}
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <PointsCard detail={detail} />
          <UsageCard detail={detail} />
          <LedgerCard detail={detail} />
          <TicketsCard detail={detail} />
          <KeysCard detail={detail} />
        </div>
        <div className="space-y-6">
          <AccountCard detail={detail} />
          {self ? (
            <Notice tone="info">{t('user.self')}</Notice>
          ) : (
            <>
              <TypeCard detail={detail} />
              <AccessCard detail={detail} />
            </>
          )}
          {detail.points.package ? null : <TrialCard formKey={formKeys.trial} packages={loaderData.trialPackages} />}
          <AdjustCard formKey={formKeys.points} lastResult={actionData?.result} />
        </div>
      </div>
    </div>
  )
}

function Facts({ rows, testId }: { rows: Array<[string, React.ReactNode]>; testId?: string }) {
  return (
    <dl className="mt-4 divide-y divide-zinc-100 text-sm dark:divide-zinc-800" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="flex items-center justify-between gap-4 py-2">
          <dt className="shrink-0 text-zinc-500 dark:text-zinc-400">{label}</dt>
          <dd className="min-w-0 text-right break-all">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function AccountCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const { t: tc } = useTranslation()
  const { user } = detail
  return (
    <Card>
      <CardTitle>{t('user.account')}</CardTitle>
      <Facts
        rows={[
          [t('user.id'), <span className="font-mono text-xs">{user.id}</span>],
          [t('user.email'), user.email],
          [t('user.type'), <span data-testid="user-type">{tc(`userType.${user.user_type}`)}</span>],
          [t('user.created'), <LocalTime ms={user.create_timestamp} />],
          [t('user.lastLogin'), user.last_login_timestamp === null ? t('user.never') : <LocalTime ms={user.last_login_timestamp} />],
        ]}
      />
    </Card>
  )
}

function PointsCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const format = useNumberFormat()
  const { points } = detail
  return (
    <Card>
      <CardTitle>{t('user.points')}</CardTitle>
      <div className="mt-4 grid grid-cols-3 gap-3">
        {(
          [
            [t('user.balance'), points.balance, 'user-balance'],
            [t('user.limit'), points.points_limit, undefined],
            [t('user.frozen'), points.frozen_points, undefined],
          ] as const
        ).map(([label, value, testId]) => (
          <div key={label} className="rounded-xl bg-zinc-50 p-3 dark:bg-zinc-800/60">
            <p className="text-xs text-zinc-500 dark:text-zinc-400">{label}</p>
            <p className="mt-1 text-lg font-semibold tabular-nums" data-testid={testId}>
              {format(value)}
            </p>
          </div>
        ))}
      </div>
      <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
        {points.package ? (
          <>
            {t('user.package')}: <span className="font-medium text-zinc-900 dark:text-zinc-100">{points.package.name}</span>
            {points.end_timestamp !== null ? (
              <>
                {' · '}
                {t('user.until')} <LocalTime ms={points.end_timestamp} dateOnly />
              </>
            ) : null}
          </>
        ) : (
          t('user.noPackage')
        )}
      </p>
    </Card>
  )
}

/** What the user's dashboard charts: the points they consumed per day. */
function UsageCard({ detail }: { detail: AdminUserDetail }) {
  const { t, i18n } = useTranslation('admin')
  return (
    <Card data-testid="user-usage">
      <CardTitle>{t('user.usage')}</CardTitle>
      <div className="mt-4">
        <BarChart bars={detail.usage.days.map((day) => ({ key: day.date, label: dayLabel(day.date, i18n.language), value: day.consumed_points }))} label={t('user.usage')} />
      </div>
    </Card>
  )
}

function LedgerCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const { t: tp } = useTranslation('points')
  const format = useNumberFormat()
  return (
    <Card>
      <CardTitle>{t('user.ledger')}</CardTitle>
      {detail.ledger.items.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('user.ledgerEmpty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-100 text-sm dark:divide-zinc-800" data-testid="user-ledger">
          {detail.ledger.items.map((item) => (
            <li key={item.id} className="flex items-center justify-between gap-3 py-2">
              <div className="min-w-0">
                <p className="truncate">
                  {item.reason ? (Object.hasOwn(pointsReasons, item.reason) ? tp(`history.reasons.${item.reason as keyof typeof pointsReasons}`) : item.reason) : (item.model ?? tp(`history.types.${item.type}`))}
                </p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  <LocalTime ms={item.create_timestamp} />
                </p>
              </div>
              <div className="shrink-0 text-right tabular-nums">
                <p className={cn('font-semibold', item.change > 0 ? 'text-emerald-600 dark:text-emerald-400' : '')}>
                  {item.change > 0 ? '+' : ''}
                  {format(item.change)}
                </p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">{format(item.balance_after)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function TicketsCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  return (
    <Card>
      <CardTitle>{t('user.tickets')}</CardTitle>
      {detail.tickets.items.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('user.ticketsEmpty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
          {detail.tickets.items.map((ticket) => (
            <li key={ticket.id} className="flex items-center justify-between gap-3 py-2">
              <Link to={`/admin/tickets/${ticket.id}`} className="min-w-0 truncate hover:text-indigo-600 dark:hover:text-indigo-400">
                <span className="mr-2 font-mono text-xs text-zinc-500 dark:text-zinc-400">{ticket.number}</span>
                {ticket.title}
              </Link>
              <TicketStatusBadge status={ticket.status} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

/** Operators switch keys off (a leak, abuse) with the owner's own switch; ticked keys go in one plain form. */
function KeysCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  // Each answer starts with nothing ticked, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  return (
    <Card>
      <CardTitle>{t('user.keys')}</CardTitle>
      {detail.api_keys.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('user.keysEmpty')}</p>
      ) : (
        <Form key={page} method="post" data-testid="user-keys-form">
          <ul className="mt-3 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
            {detail.api_keys.map((key) => (
              <li key={key.id} className="flex items-start gap-3 py-2" data-testid="user-key" data-enabled={key.limits.enabled}>
                <input
                  type="checkbox"
                  name="key_id"
                  value={key.id}
                  id={`key-${key.id}`}
                  aria-label={t('user.chooseKey', { name: key.name })}
                  className="mt-1 size-4 shrink-0 rounded border-zinc-300 text-indigo-600 dark:border-zinc-600 dark:bg-zinc-800"
                />
                <label htmlFor={`key-${key.id}`} className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="min-w-0 break-all">
                    <span className="font-medium">{key.name}</span> <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{key.masked_key}</span>
                  </span>
                  <span className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
                    {key.limits.enabled ? null : <Badge tone="red">{t('user.keyDisabled')}</Badge>}
                    <span>
                      {t('user.lastUsed')}: {key.last_used_timestamp === null ? t('user.never') : <LocalTime ms={key.last_used_timestamp} />}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap items-start justify-end gap-2 border-t border-zinc-100 pt-3 dark:border-zinc-800">
            <SubmitButton intent="keys-enable" variant="secondary" size="sm">
              {t('user.enableKeys')}
            </SubmitButton>
            <ConfirmDisclosure label={t('user.disableKeys')} cancelLabel={t('catalog.cancel')} message={t('user.disableKeysConfirm')} data-testid="disable-keys">
              <SubmitButton intent="keys-disable" variant="danger" size="sm">
                {t('user.disableKeysSubmit')}
              </SubmitButton>
            </ConfirmDisclosure>
          </div>
        </Form>
      )}
    </Card>
  )
}

function TypeCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const { t: tc } = useTranslation()
  return (
    <Card>
      <CardTitle>{t('user.changeType')}</CardTitle>
      <Form method="post" className="mt-4 flex items-end gap-2" data-testid="user-type-form">
        <div className="min-w-0 flex-1 space-y-1.5">
          <Label htmlFor="user-type-select">{t('user.typeLabel')}</Label>
          <select id="user-type-select" name="user_type" defaultValue={detail.user.user_type} className={cn(inputClass, 'pr-8')}>
            {userTypes.map((type) => (
              <option key={type} value={type}>
                {tc(`userType.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton intent="type" variant="secondary">
          {t('user.save')}
        </SubmitButton>
      </Form>
    </Card>
  )
}

function AccessCard({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation('admin')
  const disabled = detail.user.status === 'disabled'
  return (
    <Card>
      <CardTitle>{t('user.access')}</CardTitle>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('user.disableHint')}</p>
      <Form method="post" className="mt-4" data-testid="user-status-form">
        <input type="hidden" name="status" value={disabled ? 'active' : 'disabled'} />
        {disabled ? (
          <SubmitButton intent="status">{t('user.enable')}</SubmitButton>
        ) : (
          <ConfirmDisclosure label={t('user.disable')} cancelLabel={t('catalog.cancel')} message={t('user.disableConfirm', { name: detail.user.username })} data-testid="disable-user">
            <SubmitButton intent="status" variant="danger" size="sm">
              {t('user.disable')}
            </SubmitButton>
          </ConfirmDisclosure>
        )}
      </Form>
    </Card>
  )
}

function AdjustCard({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(adjustPointsSchema, { lastResult, defaultValue: { direction: 'grant' } })
  return (
    <Card>
      <CardTitle>{t('user.adjust')}</CardTitle>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('user.adjustHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" data-testid="adjust-points">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <fieldset>
          <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">{t('user.direction')}</legend>
          <div className="mt-2 flex gap-4">
            {pointsAdjustments.map((direction) => (
              <label key={direction} className="flex items-center gap-2 text-sm">
                <input {...getInputProps(fields.direction, { type: 'radio', value: direction })} key={`${fields.direction.key}-${direction}`} />
                {t(`user.${direction}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <Field meta={fields.amount} label={t('user.amount')} type="number" min={1} inputMode="numeric" />
        <Field meta={fields.reason} label={t('user.reasonLabel')} maxLength={255} />
        <SubmitButton intent="points">{t('user.submitAdjust')}</SubmitButton>
      </Form>
    </Card>
  )
}

/** Opens the user's own pages as they see them, read-only, until the banner's exit (docs/console.md). */
function ViewAsForm({ formKey }: { formKey: string }) {
  const { t } = useTranslation('admin')
  return (
    <Form method="post" className="sm:ml-auto" data-testid="view-as-form">
      <FormKey value={formKey} />
      <SubmitButton intent="view-as" variant="secondary" size="sm">
        <Eye className="size-4" aria-hidden="true" />
        {t('user.viewAs')}
      </SubmitButton>
    </Form>
  )
}

/** A user without a package has no account a grant could credit; a trial package gives them one. */
function TrialCard({ formKey, packages }: { formKey: string; packages: Array<{ code: string; name: string }> }) {
  const { t } = useTranslation('admin')
  return (
    <Card data-testid="trial-card">
      <CardTitle>{t('user.trial')}</CardTitle>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('user.trialHint')}</p>
      {packages.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('user.trialNoPackages')}</p>
      ) : (
        <Form method="post" className="mt-4 flex items-end gap-2" data-testid="trial-form">
          <FormKey value={formKey} />
          <div className="min-w-0 flex-1 space-y-1.5">
            <Label htmlFor="trial-package">{t('user.trialPackage')}</Label>
            <select id="trial-package" name="package_code" className={cn(inputClass, 'pr-8')}>
              {packages.map((pkg) => (
                <option key={pkg.code} value={pkg.code}>
                  {pkg.name} ({pkg.code})
                </option>
              ))}
            </select>
          </div>
          <SubmitButton intent="trial">{t('user.trialSubmit')}</SubmitButton>
        </Form>
      )}
    </Card>
  )
}
