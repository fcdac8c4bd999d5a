/** Users by username, e-mail or id (a GET search form, no JavaScript needed). */
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Route } from './+types/users'
import { endpoints, type User } from '#relay/contract/index.ts'
import { FilterForm, FilterInput, ListPager } from '#app/components/admin/list-controls.tsx'
import { UserStatusBadge } from '#app/components/admin/user-status-badge.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { pageParam } from '#app/utils/page-param.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q')?.trim().slice(0, 254) || undefined
  const users = await getRelay(context).call(endpoints.admin.users, { query: { q, page: pageParam(request), pageSize: 20 } })
  return { title: getI18n(context).t('admin:users.title'), users, q }
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { users, q } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('users.subtitle')} />
      <FilterForm testId="user-search" submitLabel={t('users.search')}>
        <FilterInput name="q" label={t('users.searchLabel')} value={q} />
      </FilterForm>
      <Card>
        {users.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('users.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('users.caption')}
            testId="admin-users"
            columns={[
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
        )}
        <ListPager page={users.page} pageSize={users.pageSize} total={users.total} />
      </Card>
    </div>
  )
}

function UserRow({ user }: { user: User }) {
  const { t } = useTranslation()
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="admin-user-row">
      <td className="min-w-0 md:table-cell md:py-3 md:pr-3">
        <Link to={`/admin/users/${user.id}`} className="font-medium break-all text-zinc-900 hover:text-indigo-600 dark:text-zinc-100 dark:hover:text-indigo-400">
          {user.username}
        </Link>
      </td>
      <td className="col-span-2 row-start-2 min-w-0 text-zinc-600 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">
        <span className="break-all">{user.email}</span>
      </td>
      <td className="text-zinc-600 md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">{t(`userType.${user.user_type}`)}</td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        <UserStatusBadge status={user.status} />
      </td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:text-sm md:whitespace-nowrap dark:text-zinc-400">
        <LocalTime ms={user.create_timestamp} dateOnly />
      </td>
    </tr>
  )
}
