/**
 * Users by username, e-mail or id and by state (a GET search form, no JavaScript needed); ticked
 * users are disabled (after a confirmation) or enabled together, one audit row each; and a new
 * user made from here as `user create` makes one: active at once, with a password the relay
 * generates and this page shows once (the answer to the form, never stored in the clear).
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useLocation } from 'react-router'
import type { Route } from './+types/users'
import { endpoints, userStatuses, userTypes, type User } from '#relay/contract/index.ts'
import { BulkForm, RowCheck } from '#app/components/admin/bulk-actions.tsx'
import { FilterForm, FilterInput, FilterSelect, ListPager, oneOf } from '#app/components/admin/list-controls.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Notice } from '#app/components/ui/notice.tsx'
import { createUserSchema } from '#app/schemas/admin.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { UserStatusBadge } from '#app/components/admin/user-status-badge.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { inputClass } from '#app/components/ui/input.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { bulkOutcome } from './outcome.server.ts'

const bulkFormId = 'bulk-users'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const filter = { q: url.searchParams.get('q')?.trim().slice(0, 254) || undefined, status: oneOf(url, 'status', userStatuses) }
  const users = await getRelay(context).call(endpoints.admin.users, { query: { ...filter, page: pageParam(request), pageSize: 20 } })
  return { title: getI18n(context).t('admin:users.title'), users, filter, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'disable' || intent === 'enable') {
    const url = new URL(request.url)
    return bulkOutcome(`${url.pathname}${url.search}`, formData, async (ids) => {
      // Setting a state, not toggling it: a reload or a second click changes nothing more.
      const { changed } = await getRelay(context).call(endpoints.admin.setUsersStatus, { body: { user_ids: ids, status: intent === 'disable' ? 'disabled' : 'active' } })
      return { type: 'success', key: intent === 'disable' ? 'admin:bulk.usersDisabled' : 'admin:bulk.usersEnabled', values: { count: changed } }
    })
  }
  const submission = parseWithZod(formData, { schema: createUserSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // A repeated post of the same form answers the same user and password (the form's key).
    const created = await getRelay(context).call(endpoints.admin.createUser, { body: submission.value, ...formKeyOf(formData) })
    return data({ result: submission.reply({ resetForm: true }), created })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf: { username_taken: 'username', email_taken: 'email' } })
  }
}

export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { users, filter } = loaderData
  // Each answer starts with nothing ticked, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  // The generic action type loses the success branch's shape; it is the create call's reply.
  const created = actionData && 'created' in actionData ? (actionData.created as { user: User; password: string }) : undefined
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('users.subtitle')} />
      {created ? <CreatedUser user={created.user} password={created.password} /> : null}
      <FilterForm testId="user-search" submitLabel={t('users.search')}>
        <FilterInput name="q" label={t('users.searchLabel')} value={filter.q} />
        <FilterSelect name="status" label={t('users.status')} value={filter.status} options={userStatuses.map((s) => ({ value: s, label: t(`statuses.${s}`) }))} />
      </FilterForm>
      <Card key={page}>
        {users.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('users.empty')}</p>
        ) : (
          <div className="space-y-3">
            <BulkForm id={bulkFormId}>
              <SubmitButton intent="enable" variant="secondary" size="sm">
                {t('bulk.enable')}
              </SubmitButton>
              <ConfirmDisclosure label={t('bulk.disable')} cancelLabel={t('catalog.cancel')} message={t('bulk.disableUsersConfirm')} data-testid="bulk-disable">
                <SubmitButton intent="disable" variant="danger" size="sm">
                  {t('bulk.disableUsersSubmit')}
                </SubmitButton>
              </ConfirmDisclosure>
            </BulkForm>
            <Table
              phone="stack"
              caption={t('users.caption')}
              testId="admin-users"
              columns={[
                { id: 'choose', label: <span className="sr-only">{t('bulk.choose')}</span> },
                { id: 'username', label: t('users.username') },
                { id: 'email', label: t('users.email') },
                { id: 'type', label: t('users.type') },
                { id: 'status', label: t('users.status') },
                { id: 'created', label: t('users.created') },
              ]}
            >
              {users.items.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </Table>
          </div>
        )}
        <ListPager page={users.page} pageSize={users.pageSize} total={users.total} />
      </Card>
      <CreateUser formKey={loaderData.formKey} lastResult={actionData?.result} />
    </div>
  )
}

function CreateUser({ formKey, lastResult }: { formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const { t: tc } = useTranslation()
  const [form, fields] = useZodForm(createUserSchema, { lastResult, defaultValue: { user_type: 'normal' } })
  return (
    <Card>
      <CardTitle>{t('users.create')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('users.createHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-3" data-testid="create-user">
        <FormKey value={formKey} />
        <div className="sm:col-span-3">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <Field meta={fields.username} label={t('users.username')} autoComplete="off" />
        <Field meta={fields.email} label={t('users.email')} type="email" autoComplete="off" />
        <SelectField meta={fields.user_type} label={t('users.type')} options={userTypes.map((type) => ({ value: type, label: tc(`userType.${type}`) }))} />
        <div className="flex sm:col-span-3 sm:justify-end">
          <SubmitButton>{t('users.createSubmit')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}

/** The generated password, this once: the operator hands it over and the user changes it. */
function CreatedUser({ user, password }: { user: User; password: string }) {
  const { t } = useTranslation('admin')
  return (
    <Card className="space-y-3 border-emerald-200 dark:border-emerald-900/60" data-testid="created-user">
      <Notice tone="success">{t('users.createdUser', { name: user.username })}</Notice>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('users.passwordOnce')}</p>
      <input readOnly aria-label={t('users.password')} value={password} className={cn(inputClass, 'font-mono')} data-testid="created-password" />
      <Link to={`/admin/users/${user.id}`} className="inline-block text-sm font-medium text-indigo-600 dark:text-indigo-400">
        {user.username} →
      </Link>
    </Card>
  )
}

function UserRow({ user }: { user: User }) {
  const { t } = useTranslation()
  const { t: ta } = useTranslation('admin')
  return (
    <tr className="grid grid-cols-[auto_1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="admin-user-row" data-status={user.status}>
      <td className="row-span-3 pt-0.5 md:table-cell md:w-8 md:py-3 md:pr-3">
        <RowCheck form={bulkFormId} value={user.id} label={ta('bulk.chooseRow', { name: user.username })} />
      </td>
      <td className="col-start-2 row-start-1 min-w-0 md:table-cell md:py-3 md:pr-3">
        <Link to={`/admin/users/${user.id}`} className="font-medium break-all text-zinc-900 hover:text-indigo-600 dark:text-zinc-100 dark:hover:text-indigo-400">
          {user.username}
        </Link>
      </td>
      <td className="col-span-2 col-start-2 row-start-2 min-w-0 text-zinc-600 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">
        <span className="break-all">{user.email}</span>
      </td>
      <td className="col-start-2 row-start-3 text-zinc-600 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">{t(`userType.${user.user_type}`)}</td>
      <td className="col-start-3 row-start-1 justify-self-end md:table-cell md:py-3 md:pr-3">
        <UserStatusBadge status={user.status} />
      </td>
      <td className="col-start-3 row-start-3 justify-self-end text-xs text-zinc-500 md:table-cell md:py-3 md:text-sm md:whitespace-nowrap dark:text-zinc-400">
        <LocalTime ms={user.create_timestamp} dateOnly />
      </td>
    </tr>
  )
}
