/**
 * Users by username, e-mail or id and by state (a GET search form, no JavaScript needed); ticked
 * users are disabled (after a confirmation) or enabled together, one audit row each.
 */
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import type { Route } from './+types/users'
import { endpoints, userStatuses, type User } from '#relay/contract/index.ts'
import { BulkForm, RowCheck } from '#app/components/admin/bulk-actions.tsx'
import { FilterForm, FilterInput, FilterSelect, ListPager, oneOf } from '#app/components/admin/list-controls.tsx'
import { UserStatusBadge } from '#app/components/admin/user-status-badge.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { badForm, bulkOutcome } from './outcome.server.ts'

const bulkFormId = 'bulk-users'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const filter = { q: url.searchParams.get('q')?.trim().slice(0, 254) || undefined, status: oneOf(url, 'status', userStatuses) }
  const users = await getRelay(context).call(endpoints.admin.users, { query: { ...filter, page: pageParam(request), pageSize: 20 } })
  return { title: getI18n(context).t('admin:users.title'), users, filter }
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent !== 'disable' && intent !== 'enable') return badForm(back)
  return bulkOutcome(back, formData, async (ids) => {
    // Setting a state, not toggling it: a reload or a second click changes nothing more.
    const { changed } = await getRelay(context).call(endpoints.admin.setUsersStatus, { body: { user_ids: ids, status: intent === 'disable' ? 'disabled' : 'active' } })
    return { type: 'success', key: intent === 'disable' ? 'admin:bulk.usersDisabled' : 'admin:bulk.usersEnabled', values: { count: changed } }
  })
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { users, filter } = loaderData
  // Each answer starts with nothing ticked, as a page loaded without JavaScript does.
  const { key: page } = useLocation()
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('users.subtitle')} />
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
    </div>
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
