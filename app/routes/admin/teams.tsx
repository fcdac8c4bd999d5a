/**
 * Teams: every team with its newest subscription and member count, and a form to create one on
 * a team package (the CLI's `team create`, through the same service function).
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { Route } from './+types/teams'
import { endpoints, type AdminTeam } from '#relay/contract/index.ts'
import { TeamStatusBadge } from '#app/components/admin/team-status-badge.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { newTeamSchema } from '#app/schemas/admin-catalog.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { teamPackageOptions } from '#app/utils/team-packages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ context }: Route.LoaderArgs) {
  const relay = getRelay(context)
  const [teams, packages] = await Promise.all([relay.call(endpoints.admin.teams), teamPackageOptions(context)])
  return { title: getI18n(context).t('admin:catalog.teams.title'), teams: teams.items, packages, formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: newTeamSchema })
  if (submission.status !== 'success') return invalid(submission)
  let id: string
  try {
    // A repeated post of the same form creates the team once.
    ;({ id } = await getRelay(context).call(endpoints.admin.createTeam, { body: submission.value, ...formKeyOf(formData) }))
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf: { not_found: 'owner', already_in_team: 'owner' }, messageOf: { already_in_team: 'admin:catalog.teams.ownerInTeam' } })
  }
  return redirectWithToast(`/admin/teams/${id}`, { type: 'success', key: 'admin:catalog.toast.teamCreated' })
}

export default function AdminTeams({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('catalog.teams.subtitle')} />
      <Card>
        {loaderData.teams.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('catalog.teams.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('catalog.teams.caption')}
            testId="admin-teams"
            columns={[
              { id: 'name', label: t('catalog.teams.name') },
              { id: 'owner', label: t('catalog.teams.owner') },
              { id: 'package', label: t('catalog.teams.package') },
              { id: 'status', label: t('catalog.teams.status') },
              { id: 'ends', label: t('catalog.teams.ends') },
              { id: 'members', label: t('catalog.teams.members'), align: 'end' },
            ]}
          >
            {loaderData.teams.map((team) => (
              <TeamRow key={team.id} team={team} />
            ))}
          </Table>
        )}
      </Card>
      <CreateCard packages={loaderData.packages} formKey={loaderData.formKey} lastResult={actionData?.result} />
    </div>
  )
}

function TeamRow({ team }: { team: AdminTeam }) {
  const { t } = useTranslation('admin')
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="team-row">
      <td className="min-w-0 md:table-cell md:py-3 md:pr-3">
        <Link to={`/admin/teams/${team.id}`} className="font-medium break-words text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
          {team.name}
        </Link>
      </td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">{team.owner}</td>
      <td className="font-mono text-xs md:table-cell md:py-3 md:pr-3 md:text-sm">{team.package}</td>
      <td className="justify-self-end md:table-cell md:py-3 md:pr-3">
        <TeamStatusBadge status={team.status} />
      </td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        <span className="md:hidden">{t('catalog.teams.ends')}: </span>
        <LocalTime ms={team.end_timestamp} />
      </td>
      <td className="justify-self-end text-sm tabular-nums md:table-cell md:py-3 md:text-right">
        <span className="md:hidden">{t('catalog.teams.members')}: </span>
        {team.members}
      </td>
    </tr>
  )
}

function CreateCard({ packages, formKey, lastResult }: { packages: Array<{ value: string; label: string }>; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(newTeamSchema, { lastResult, defaultValue: { package_code: packages[0]?.value } })
  return (
    <Card>
      <CardTitle>{t('catalog.teams.create')}</CardTitle>
      {packages.length === 0 ? (
        <Notice tone="warning" className="mt-3">
          {t('catalog.teams.noTeamPackage')}{' '}
          <Link to="/admin/packages" className="font-medium underline">
            {t('catalog.nav.packages')}
          </Link>
        </Notice>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="create-team">
          <FormKey value={formKey} />
          <div className="sm:col-span-2 lg:col-span-3">
            <FormErrors id={form.errorId} errors={form.errors} />
          </div>
          <Field meta={fields.name} label={t('catalog.teams.name')} maxLength={64} />
          <SelectField meta={fields.package_code} label={t('catalog.teams.package')} options={packages} />
          <Field meta={fields.owner} label={t('catalog.teams.owner')} hint={t('catalog.teams.ownerHint')} autoComplete="off" maxLength={32} />
          <div className="sm:col-span-2 lg:col-span-3">
            <SubmitButton>{t('catalog.teams.submitCreate')}</SubmitButton>
          </div>
        </Form>
      )}
    </Card>
  )
}
