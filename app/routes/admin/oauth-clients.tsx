/**
 * OAuth clients: the external apps registered to ask users for access. Register one (its secret
 * is shown once, on the page that answers the form), edit one (`?edit=<id>`), remove one. The same
 * service functions as the CLI's `client create|remove`.
 */
import { getFormProps, getTextareaProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data } from 'react-router'
import { EditRemoveActions, RowForm, SaveButtons } from '#app/components/admin/edit-remove-actions.tsx'
import type { Route } from './+types/oauth-clients'
import { endpoints, oauthClientNameMax, type AdminOAuthClient, type CreatedOAuthClient } from '#relay/contract/index.ts'
import { Checkbox } from '#app/components/forms/checkbox.tsx'
import { ErrorList, Field, FormErrors } from '#app/components/forms/field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { oauthClientFormSchema } from '#app/schemas/admin-catalog.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { removeOrSave, rowToEdit } from './edit-remove.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

const back = '/admin/oauth-clients'

export async function loader({ request, context }: Route.LoaderArgs) {
  const { items } = await getRelay(context).call(endpoints.admin.oauthClients)
  return { title: getI18n(context).t('admin:catalog.clients.title'), clients: items, editing: rowToEdit(request, items), formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const relay = getRelay(context)
  const formData = await request.formData()
  const row = await removeOrSave(formData, back, async (id) => {
    await relay.call(endpoints.admin.removeOAuthClient, { params: { id } })
    return { type: 'success', key: 'admin:catalog.toast.clientRemoved' }
  })
  if (row instanceof Response) return row
  const { id } = row
  const submission = parseWithZod(formData, { schema: oauthClientFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  const fieldOf = { validation: 'redirect_uris' }
  if (id) {
    try {
      await relay.call(endpoints.admin.updateOAuthClient, { params: { id }, body: submission.value })
    } catch (error) {
      return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf })
    }
    return redirectWithToast(back, { type: 'success', key: 'admin:catalog.toast.clientSaved' })
  }
  try {
    // The secret is answered here, once; a repeated post of the same form gets the same client back.
    const created = await relay.call(endpoints.admin.createOAuthClient, { body: submission.value, ...formKeyOf(formData) })
    return data({ result: submission.reply({ resetForm: true }), created })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf })
  }
}

export default function AdminOAuthClients({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { clients, editing } = loaderData
  // The generic action type loses the success branch's shape; it is the create call's reply.
  const created = actionData && 'created' in actionData ? (actionData.created as CreatedOAuthClient) : undefined
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('catalog.clients.subtitle')} />
      {created ? (
        <Card className="border-emerald-200 dark:border-emerald-900/60" data-testid="created-client">
          <Notice tone="success">{t('catalog.clients.secretShown')}</Notice>
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
            <div className="min-w-0">
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">{t('catalog.clients.clientId')}</dt>
              <dd className="font-mono break-all">{created.client.client_id}</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">{t('catalog.clients.secretLabel')}</dt>
              <dd className="font-mono break-all" data-testid="client-secret">
                {created.client_secret}
              </dd>
            </div>
          </dl>
        </Card>
      ) : null}
      <Card>
        {clients.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('catalog.clients.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('catalog.clients.caption')}
            testId="admin-clients"
            columns={[
              { id: 'name', label: t('catalog.clients.name') },
              { id: 'uris', label: t('catalog.clients.redirectUris') },
              { id: 'created', label: t('catalog.clients.created') },
              { id: 'actions', label: '', align: 'end' },
            ]}
          >
            {clients.map((client) => (
              <ClientRow key={client.id} client={client} />
            ))}
          </Table>
        )}
      </Card>
      <ClientForm key={editing?.id ?? 'new'} editing={editing} formKey={loaderData.formKey} lastResult={created ? undefined : actionData?.result} />
    </div>
  )
}

function ClientRow({ client }: { client: AdminOAuthClient }) {
  const { t } = useTranslation('admin')
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 align-top md:table-row md:py-0" data-testid="client-row" data-client-id={client.client_id}>
      <td className="min-w-0 md:table-cell md:py-3 md:pr-3">
        <p className="font-medium break-words">
          {client.name}{' '}
          <Badge tone={client.first_party ? 'indigo' : 'zinc'}>{client.first_party ? t('catalog.clients.firstParty') : t('catalog.clients.thirdParty')}</Badge>
        </p>
        <p className="font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">{client.client_id}</p>
      </td>
      <td className="col-span-2 min-w-0 md:table-cell md:max-w-xs md:py-3 md:pr-3">
        {client.redirect_uris.length === 0 ? (
          <span className="text-sm text-zinc-500 dark:text-zinc-400">{t('catalog.clients.noRedirect')}</span>
        ) : (
          <ul className="space-y-0.5 font-mono text-xs break-all">
            {client.redirect_uris.map((uri) => (
              <li key={uri}>{uri}</li>
            ))}
          </ul>
        )}
      </td>
      <td className="text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        <LocalTime ms={client.create_timestamp} />
      </td>
      <EditRemoveActions id={client.id} name={client.name} />
    </tr>
  )
}

function ClientForm({ editing, formKey, lastResult }: { editing: AdminOAuthClient | null; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(oauthClientFormSchema, {
    id: editing ? `client-${editing.id}` : 'client-new',
    lastResult,
    defaultValue: editing ? { name: editing.name, redirect_uris: editing.redirect_uris.join('\n'), first_party: editing.first_party } : undefined,
  })
  const uris = getTextareaProps(fields.redirect_uris)
  return (
    <Card>
      <CardTitle>{editing ? t('catalog.clients.editTitle') : t('catalog.clients.add')}</CardTitle>
      <RowForm editingId={editing?.id} formKey={formKey} {...getFormProps(form)} className="mt-4 space-y-4" data-testid="client-form">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.name} label={t('catalog.clients.name')} hint={t('catalog.clients.nameHint')} maxLength={oauthClientNameMax} />
        <div className="space-y-1.5">
          <Label htmlFor={fields.redirect_uris.id}>{t('catalog.clients.redirectUris')}</Label>
          <textarea {...uris} key={uris.key} rows={3} className={cn(inputClass, 'font-mono text-sm')} placeholder="https://app.example.com/callback" />
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('catalog.clients.redirectHint')}</p>
          <ErrorList id={fields.redirect_uris.errorId} errors={fields.redirect_uris.errors} />
        </div>
        <Checkbox meta={fields.first_party}>{t('catalog.clients.firstPartyLabel')}</Checkbox>
        <SaveButtons editing={editing !== null} addLabel={t('catalog.clients.submitAdd')} list={back} />
      </RowForm>
    </Card>
  )
}
