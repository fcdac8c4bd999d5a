/**
 * Resource links: the list every user sees on their profile page; add one, edit one (`?edit=<id>`
 * fills the form with it, so it works without JavaScript), remove one. The same service functions
 * as the CLI's `resource add|remove`.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { EditRemoveActions, RowForm, SaveButtons } from '#app/components/admin/edit-remove-actions.tsx'
import type { Route } from './+types/resources'
import { endpoints, resourceBounds, type ResourceLink } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { resourceFormSchema } from '#app/schemas/admin-catalog.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { removeOrSave, rowToEdit } from './edit-remove.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

const back = '/admin/resources'

export async function loader({ request, context }: Route.LoaderArgs) {
  const list = await getRelay(context).call(endpoints.admin.resources)
  return { title: getI18n(context).t('admin:catalog.resources.title'), links: list.items, editing: rowToEdit(request, list.items), formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const relay = getRelay(context)
  const formData = await request.formData()
  const row = await removeOrSave(formData, back, async (id) => {
    await relay.call(endpoints.admin.removeResource, { params: { id } })
    return { type: 'success', key: 'admin:catalog.toast.resourceRemoved' }
  })
  if (row instanceof Response) return row
  const { id } = row
  const submission = parseWithZod(formData, { schema: resourceFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    if (id) await relay.call(endpoints.admin.updateResource, { params: { id }, body: submission.value })
    // A repeated post of the same form adds the link once.
    else await relay.call(endpoints.admin.addResource, { body: submission.value, ...formKeyOf(formData) })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed' })
  }
  return redirectWithToast(back, { type: 'success', key: id ? 'admin:catalog.toast.resourceSaved' : 'admin:catalog.toast.resourceAdded' })
}

export default function AdminResources({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const { links, editing } = loaderData
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('catalog.resources.subtitle')} />
      <Card>
        {links.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('catalog.resources.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('catalog.resources.caption')}
            testId="admin-resources"
            columns={[
              { id: 'order', label: t('catalog.resources.order') },
              { id: 'title', label: t('catalog.resources.linkTitle') },
              { id: 'url', label: t('catalog.resources.url') },
              { id: 'actions', label: '', align: 'end' },
            ]}
          >
            {links.map((link) => (
              <LinkRow key={link.id} link={link} editing={editing?.id === link.id} />
            ))}
          </Table>
        )}
      </Card>
      {/* A new key per link edited, so the form takes that link's values. */}
      <LinkForm key={editing?.id ?? 'new'} editing={editing} formKey={loaderData.formKey} lastResult={actionData?.result} />
    </div>
  )
}

function LinkRow({ link, editing }: { link: ResourceLink; editing: boolean }) {
  return (
    <tr className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="resource-row" data-editing={editing || undefined}>
      <td className="text-sm text-zinc-500 tabular-nums md:table-cell md:py-3 md:pr-3 dark:text-zinc-400">{link.sort_order}</td>
      <td className="min-w-0 md:table-cell md:py-3 md:pr-3">
        <p className="font-medium break-words">{link.title}</p>
        {link.description ? <p className="text-xs break-words text-zinc-500 dark:text-zinc-400">{link.description}</p> : null}
      </td>
      <td className="col-span-2 min-w-0 md:table-cell md:max-w-xs md:py-3 md:pr-3">
        <a href={link.url} rel="noreferrer noopener" target="_blank" className="font-mono text-xs break-all text-indigo-600 dark:text-indigo-400">
          {link.url}
        </a>
      </td>
      <EditRemoveActions id={link.id} name={link.title} className="col-span-2" />
    </tr>
  )
}

function LinkForm({ editing, formKey, lastResult }: { editing: ResourceLink | null; formKey: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(resourceFormSchema, {
    id: editing ? `link-${editing.id}` : 'link-new',
    lastResult,
    defaultValue: editing ? { title: editing.title, url: editing.url, description: editing.description ?? '', sort_order: String(editing.sort_order) } : undefined,
  })
  return (
    <Card id="link-form">
      <CardTitle>{editing ? t('catalog.resources.editTitle') : t('catalog.resources.add')}</CardTitle>
      <RowForm editingId={editing?.id} formKey={formKey} {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="resource-form">
        <div className="sm:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <Field meta={fields.title} label={t('catalog.resources.linkTitle')} maxLength={resourceBounds.title.max} />
        <Field meta={fields.url} label={t('catalog.resources.url')} type="url" maxLength={resourceBounds.url.max} placeholder="https://" />
        <Field meta={fields.description} label={t('catalog.resources.description')} maxLength={resourceBounds.description.max} />
        <Field meta={fields.sort_order} label={t('catalog.resources.order')} hint={t('catalog.resources.orderHint')} inputMode="numeric" />
        <SaveButtons editing={editing !== null} addLabel={t('catalog.resources.submitAdd')} list={back} className="sm:col-span-2" />
      </RowForm>
    </Card>
  )
}
