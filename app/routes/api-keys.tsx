/**
 * API keys (docs/product.md): create (the full key shown once, from the action's reply, so it needs no
 * JavaScript and is never stored in a cookie; a reload that re-posts the form shows the same key,
 * docs/decisions/005-forms.md), list, each key's controls and use (docs/decisions/050-api-keys-and-their-limits.md), delete behind a
 * confirmation, and the Claude Code usage guide filled in with this deployment's URL.
 */
import { KeyRound } from 'lucide-react'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/api-keys'
import { apiKeyPrefix, endpoints, type ApiKey, type CreatedApiKey } from '#relay/contract/index.ts'
import { KeyLimits } from '#app/components/api-keys/key-limits.tsx'
import { UsageGuide } from '#app/components/api-keys/usage-guide.tsx'
import { CopyField } from '#app/components/copy-button.tsx'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { showToast } from '#app/components/toaster.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { ConfirmDisclosure } from '#app/components/ui/confirm-disclosure.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { apiKeyLimitsFormSchema, createApiKeySchema, deleteApiKeySchema, limitsBody } from '#app/schemas/api-keys.ts'
import { apiBaseUrl } from '#server/env.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayErrorKey, relayRefusal } from '#app/utils/forms.server.ts'
import { RelayCallError } from '#app/utils/relay-client.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const keys = await getRelay(context).call(endpoints.apiKeys.list)
  return {
    title: getI18n(context).t('apiKeys:title'),
    keys: keys.items,
    limit: keys.limit,
    baseUrl: apiBaseUrl(request),
    formKey: newFormKey(),
    // One "now" for the server render and the hydration: whether a key has expired reads the same.
    now: Date.now(),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const relay = getRelay(context)
  if (formData.get('intent') === 'delete') {
    const parsed = deleteApiKeySchema.safeParse({ id: formData.get('id') })
    if (!parsed.success) return redirectWithToast('/api-keys', { type: 'error', key: 'errors:reason.not_found' })
    try {
      await relay.call(endpoints.apiKeys.delete, { params: { id: parsed.data.id } })
    } catch (error) {
      if (!(error instanceof RelayCallError)) throw error
      return redirectWithToast('/api-keys', { type: 'error', key: relayErrorKey(error) })
    }
    return redirectWithToast('/api-keys', { type: 'success', key: 'apiKeys:toast.deleted' })
  }
  if (formData.get('intent') === 'limits') {
    const submission = parseWithZod(formData, { schema: apiKeyLimitsFormSchema })
    // Which key's form answers: only that one shows the errors and the typed input.
    const limitsOf = String(formData.get('id') ?? '')
    if (submission.status !== 'success') return data({ result: submission.reply(), limitsOf }, { status: 400 })
    try {
      await relay.call(endpoints.apiKeys.limits, { params: { id: submission.value.id }, body: limitsBody(submission.value) })
    } catch (error) {
      const refusal = relayRefusal(submission, error, { fieldOf: { api_key_expiry_past: 'expires' } })
      return data({ ...refusal.data, limitsOf }, { status: refusal.init?.status ?? 400 })
    }
    return redirectWithToast('/api-keys', { type: 'success', key: 'apiKeys:toast.limitsSaved' })
  }
  const submission = parseWithZod(formData, { schema: createApiKeySchema })
  if (submission.status !== 'success') return invalid(submission)
  try {
    // The form's key makes a reload (which re-posts the form) or a double click answer this same
    // key again instead of creating a second one.
    const created = await relay.call(endpoints.apiKeys.create, { body: { name: submission.value.name }, ...formKeyOf(formData) })
    // No redirect: the full key exists only in this reply (Post/Redirect/Get would lose it).
    return data({ result: submission.reply({ resetForm: true }), created })
  } catch (error) {
    return relayRefusal(submission, error, { fieldOf: { validation: 'name' } })
  }
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('apiKeys')
  const { keys, limit, baseUrl } = loaderData
  // Typegen merges the action's replies into one shape; only a create carries `created`, only a
  // refused limits form `limitsOf`.
  const created = (actionData as { created?: CreatedApiKey } | undefined)?.created
  const limitsOf = (actionData as { limitsOf?: string } | undefined)?.limitsOf
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('subtitle')} />
      {created ? <CreatedKey created={created} /> : null}
      <CreateKeyForm lastResult={limitsOf === undefined ? actionData?.result : undefined} count={keys.length} limit={limit} formKey={loaderData.formKey} />
      <KeyList keys={keys} now={loaderData.now} limitsResult={limitsOf === undefined ? undefined : { keyId: limitsOf, result: actionData?.result }} />
      <UsageGuide baseUrl={baseUrl} apiKey={created?.key ?? `${apiKeyPrefix}…`} placeholder={!created} />
    </div>
  )
}

function CreatedKey({ created }: { created: CreatedApiKey }) {
  const { t } = useTranslation('apiKeys')
  // With JavaScript the success also shows as a toast; without it this panel is the message.
  useEffect(() => {
    showToast({ type: 'success', key: 'apiKeys:created.title', values: { name: created.name } })
  }, [created])
  return (
    <section
      aria-labelledby="created-title"
      data-testid="created-key"
      className="space-y-4 rounded-2xl border border-emerald-200 bg-emerald-50 p-5 sm:p-6 dark:border-emerald-900/60 dark:bg-emerald-950/30"
    >
      <h2 id="created-title" className="text-base font-semibold text-emerald-900 dark:text-emerald-100">
        {t('created.title', { name: created.name })}
      </h2>
      <Notice tone="warning">{t('created.warning')}</Notice>
      <CopyField id="new-key" label={t('created.label')} value={created.key} copyText={t('guide.copy')} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-emerald-800 dark:text-emerald-200">{t('created.guide')}</p>
        <Link to="/api-keys" className={buttonClass({ variant: 'secondary' })}>
          {t('created.done')}
        </Link>
      </div>
    </section>
  )
}

function CreateKeyForm({
  lastResult,
  count,
  limit,
  formKey,
}: {
  lastResult?: SubmissionResult<string[]>
  count: number
  limit: number
  formKey: string
}) {
  const { t } = useTranslation('apiKeys')
  const [form, fields] = useZodForm(createApiKeySchema, { lastResult })
  const full = count >= limit
  return (
    <Card aria-labelledby="create-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <CardTitle id="create-title">{t('create.title')}</CardTitle>
        <p className="text-sm text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="key-count">
          {t('create.usage', { count, limit })}
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormKey value={formKey} />
        <FormErrors id={form.errorId} errors={form.errors} />
        {full ? <Notice tone="warning">{t('create.full')}</Notice> : null}
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field meta={fields.name} label={t('create.name')} hint={t('create.nameHint')} maxLength={64} autoComplete="off" className="sm:max-w-md sm:flex-1" />
          {/* Lined up with the input, below its label. */}
          <SubmitButton intent="create" className="sm:mt-7">
            {t('create.submit')}
          </SubmitButton>
        </div>
      </Form>
    </Card>
  )
}

function KeyList({
  keys,
  now,
  limitsResult,
}: {
  keys: ApiKey[]
  now: number
  limitsResult?: { keyId: string; result?: SubmissionResult<string[]> }
}) {
  const { t } = useTranslation('apiKeys')
  return (
    <Card aria-labelledby="keys-title">
      <CardTitle id="keys-title">{t('list.title')}</CardTitle>
      {keys.length === 0 ? (
        <EmptyState
          icon={KeyRound}
          title={t('list.emptyTitle')}
          body={t('list.emptyBody')}
          testId="keys-empty"
          className="mt-4"
        />
      ) : (
        <Table
          phone="stack"
          caption={t('list.caption')}
          testId="keys-table"
          className="mt-4"
          columns={[
            { id: 'name', label: t('list.name') },
            { id: 'key', label: t('list.key') },
            { id: 'created', label: t('list.created') },
            { id: 'lastUsed', label: t('list.lastUsed') },
            { id: 'actions', label: t('list.actions'), align: 'end' },
          ]}
        >
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} now={now} limitsResult={limitsResult?.keyId === key.id ? limitsResult.result : undefined} />
          ))}
        </Table>
      )}
    </Card>
  )
}

/**
 * A table row on desktop, a stacked card on phones; each cell names itself there. Below it, a
 * row across the table holds the key's use and controls.
 */
function KeyRow({ apiKey, now, limitsResult }: { apiKey: ApiKey; now: number; limitsResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('apiKeys')
  const cell = 'flex items-baseline justify-between gap-3 py-1 md:table-cell md:py-3 md:pr-3'
  const phoneLabel = 'text-xs text-zinc-500 md:hidden dark:text-zinc-400'
  return (
    <>
    <tr className="block pt-3 md:table-row md:pt-0" data-testid="key-row">
      <td className={`${cell} font-medium break-all text-zinc-900 dark:text-zinc-100`}>
        <span className={phoneLabel}>{t('list.name')}</span>
        <span>{apiKey.name}</span>
      </td>
      <td className={cell}>
        <span className={phoneLabel}>{t('list.key')}</span>
        <code className="font-mono text-xs whitespace-nowrap text-zinc-700 dark:text-zinc-300">{apiKey.masked_key}</code>
      </td>
      <td className={`${cell} whitespace-nowrap text-zinc-600 dark:text-zinc-400`}>
        <span className={phoneLabel}>{t('list.created')}</span>
        <LocalTime ms={apiKey.create_timestamp} />
      </td>
      <td className={`${cell} whitespace-nowrap text-zinc-600 dark:text-zinc-400`}>
        <span className={phoneLabel}>{t('list.lastUsed')}</span>
        {apiKey.last_used_timestamp === null ? <span>{t('list.neverUsed')}</span> : <LocalTime ms={apiKey.last_used_timestamp} />}
      </td>
      <td className="block pt-2 md:table-cell md:py-3 md:text-right">
        <DeleteKey apiKey={apiKey} />
      </td>
    </tr>
    {/* No divider between a key and its controls: they read as one entry. */}
    <tr className="block !border-t-0 pb-4 md:table-row" data-testid="key-limits-row" aria-label={t('limits.title', { name: apiKey.name })}>
      <td colSpan={5} className="block pt-2 md:table-cell md:pb-4">
        <KeyLimits apiKey={apiKey} now={now} lastResult={limitsResult} />
      </td>
    </tr>
    </>
  )
}

/** Deleting takes two deliberate clicks, without JavaScript too. */
function DeleteKey({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation('apiKeys')
  return (
    <ConfirmDisclosure label={t('delete.button')} cancelLabel={t('delete.cancel')} message={t('delete.confirm', { name: apiKey.name })}>
      <Form method="post">
        <input type="hidden" name="id" value={apiKey.id} />
        <SubmitButton intent="delete" variant="danger" size="sm">
          {t('delete.submit')}
        </SubmitButton>
      </Form>
    </ConfirmDisclosure>
  )
}
