/**
 * One team for an operator: its subscription, code and invitation link, its members in the order
 * they joined, and a renewal on a team package (the CLI's `team renew`, same service function).
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/team'
import { endpoints, type AdminTeamDetail } from '#relay/contract/index.ts'
import { TeamStatusBadge } from '#app/components/admin/team-status-badge.tsx'
import { FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { NotFoundCard } from '#app/components/not-found-card.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Facts } from '#app/components/ui/facts.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { renewTeamSchema } from '#app/schemas/admin-catalog.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { teamPackageOptions } from '#app/utils/team-packages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { BackLink } from '#app/components/ui/back-link.tsx'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ params, context }: Route.LoaderArgs) {
  const t = getI18n(context).t
  try {
    const [detail, packages] = await Promise.all([getRelay(context).call(endpoints.admin.team, { params: { id: params.id } }), teamPackageOptions(context)])
    return { title: `${detail.team.name} · ${t('admin:catalog.teams.title')}`, detail, packages, formKey: newFormKey() }
  } catch (error) {
    if (error instanceof RelayCallError && (error.status === 404 || error.status === 400)) {
      return data({ title: t('admin:catalog.teams.notFound'), detail: null, packages: [], formKey: '' }, { status: 404 })
    }
    throw error
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: renewTeamSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // A repeated post of the same form renews once.
    await getRelay(context).call(endpoints.admin.renewTeam, { params: { id: params.id }, body: submission.value, ...formKeyOf(formData) })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast(`/admin/teams/${params.id}`, { type: 'success', key: 'admin:catalog.toast.teamRenewed' })
}

export default function AdminTeam({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { detail } = loaderData
  if (!detail) return <NotFoundCard title={t('catalog.teams.notFound')} back="/admin/teams" backLabel={t('catalog.teams.back')} data-testid="admin-team-not-found" />
  const { team } = detail
  return (
    <div className="space-y-6">
      <PageHeader
        above={<BackLink to="/admin/teams">{t('catalog.teams.back')}</BackLink>}
        title={<span className="break-words">{team.name}</span>}
        subtitle={`${t('catalog.teams.owner')}: ${team.owner}`}
        actions={<TeamStatusBadge status={team.status} />}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <Facts
              className="grid-cols-3"
              facts={[
                { label: t('catalog.teams.package'), value: <span className="font-mono">{team.package}</span> },
                { label: t('catalog.teams.ends'), value: <LocalTime ms={team.end_timestamp} /> },
                { label: t('catalog.teams.members'), value: team.members, testId: 'team-members-count' },
              ]}
            />
            <div className="mt-4 space-y-1 border-t border-zinc-100 pt-4 text-sm dark:border-zinc-800">
              <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('catalog.teams.code')}</p>
              <p className="font-mono text-xs break-all" data-testid="team-code">
                {detail.team_code}
              </p>
              <p className="pt-2 text-xs text-zinc-500 dark:text-zinc-400">{t('catalog.teams.invite')}</p>
              {detail.invite_url ? (
                <p className="mt-1 font-mono text-xs break-all" data-testid="team-invite">
                  {detail.invite_url}
                </p>
              ) : (
                <Notice tone="info" className="mt-1">
                  {t('catalog.teams.inviteUnknown')}
                </Notice>
              )}
            </div>
          </Card>
          <MembersCard detail={detail} />
        </div>
        <RenewCard packages={loaderData.packages} formKey={loaderData.formKey} lastResult={actionData?.result} />
      </div>
    </div>
  )
}

function MembersCard({ detail }: { detail: AdminTeamDetail }) {
  const { t } = useTranslation('admin')
  return (
    <Card>
      <CardTitle>{t('catalog.teams.membersTitle')}</CardTitle>
      <div className="mt-2">
        <Table
          phone="stack"
          caption={t('catalog.teams.membersTitle')}
          testId="team-members"
          columns={[
            { id: 'username', label: t('users.username') },
            { id: 'joined', label: t('catalog.teams.joined'), align: 'end' },
          ]}
        >
          {detail.members.map((member) => (
            <tr key={member.user_id} className="grid grid-cols-[1fr_auto] gap-x-3 py-3 md:table-row md:py-0" data-testid="team-member">
              <td className="min-w-0 md:table-cell md:py-3 md:pr-3">
                <Link to={`/admin/users/${member.user_id}`} className="font-medium break-all text-indigo-600 dark:text-indigo-400">
                  {member.username}
                </Link>
              </td>
              <td className="justify-self-end text-xs text-zinc-500 md:table-cell md:py-3 md:text-right md:text-sm dark:text-zinc-400">
                <LocalTime ms={member.joined_timestamp} />
              </td>
            </tr>
          ))}
        </Table>
      </div>
    </Card>
  )
}

function RenewCard({ packages, formKey, lastResult }: { packages: Array<{ value: string; label: string }>; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(renewTeamSchema, { lastResult, defaultValue: { package_code: packages[0]?.value } })
  return (
    <Card className="self-start">
      <CardTitle>{t('catalog.teams.renew')}</CardTitle>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('catalog.teams.renewHint')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4" data-testid="renew-team">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField meta={fields.package_code} label={t('catalog.teams.package')} options={packages} />
        <ConfirmDisclosure label={t('catalog.teams.submitRenew')} cancelLabel={t('catalog.cancel')} message={t('catalog.teams.renewConfirm')}>
          <SubmitButton variant="danger" size="sm">
            {t('catalog.teams.submitRenew')}
          </SubmitButton>
        </ConfirmDisclosure>
      </Form>
    </Card>
  )
}
