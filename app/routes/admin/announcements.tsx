/**
 * Announcements (docs/decisions/125-mail-and-announcements.md): post one with a level, a text per language and a window;
 * list them with their state; remove one at once. The same service as `npm run admin -- announcement …`,
 * and each action lands in the audit log. The form reads its times in the reader's zone and the
 * list prints them in it, both saying which (UTC until scripts report the zone, as LocalTime does).
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { Route } from './+types/announcements'
import { announcementLevels, announcementMessageMax, endpoints, idSchema, type AdminAnnouncement } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { TextareaField } from '#app/components/forms/textarea-field.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { LocalTime } from '#app/components/local-time.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/ui/page-header.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { getI18n } from '#app/middleware/i18n.server.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { announcementFormSchema } from '#app/schemas/notifications.ts'
import { formKeyOf, newFormKey } from '#app/utils/form-key.server.ts'
import { invalid, relayRefusal } from '#app/utils/forms.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { fallbackZone, instantInZone, offsetName } from '#app/utils/zoned-time.ts'
import { badForm, operatorOutcome } from './outcome.server.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }]

export async function loader({ context }: Route.LoaderArgs) {
  const { items } = await getRelay(context).call(endpoints.admin.announcements)
  return { title: getI18n(context).t('admin:announcements.title'), items, now: Date.now(), formKey: newFormKey() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const back = '/admin/announcements'
  const relay = getRelay(context)
  const formData = await request.formData()
  if (formData.get('intent') === 'remove') {
    const id = idSchema.safeParse(formData.get('id'))
    if (!id.success) return badForm(back)
    return operatorOutcome(back, async () => {
      await relay.call(endpoints.admin.removeAnnouncement, { params: { id: id.data } })
      return { type: 'success', key: 'admin:toast.announcementRemoved' }
    })
  }
  const submission = parseWithZod(formData, { schema: announcementFormSchema })
  if (submission.status !== 'success') return invalid(submission)
  const v = submission.value
  try {
    await relay.call(endpoints.admin.createAnnouncement, {
      body: { level: v.level, message_zh: v.message_zh, message_en: v.message_en, message_ja: v.message_ja, starts_at: v.starts_at ? instantInZone(v.starts_at, v.time_zone) : undefined, ends_at: instantInZone(v.ends_at, v.time_zone) },
      ...formKeyOf(formData),
    })
  } catch (error) {
    return relayRefusal(submission, error, { failed: 'admin:failed', fieldOf: { validation: 'ends_at' } })
  }
  return redirectWithToast(back, { type: 'success', key: 'admin:toast.announcementCreated' })
}

export default function AdminAnnouncements({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const zone = useReaderZone()
  return (
    <div className="space-y-6">
      <PageHeader title={loaderData.title} subtitle={t('announcements.subtitle')} />
      <CreateCard formKey={loaderData.formKey} lastResult={actionData?.result} zone={zone} now={loaderData.now} />
      <Card>
        {loaderData.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">{t('announcements.empty')}</p>
        ) : (
          <Table
            phone="stack"
            caption={t('announcements.caption')}
            testId="admin-announcements"
            columns={[
              { id: 'level', label: t('announcements.level') },
              { id: 'message', label: t('announcements.message') },
              { id: 'window', label: t('announcements.window', { zone }) },
              { id: 'state', label: t('announcements.state') },
              { id: 'actions', label: '', align: 'end' },
            ]}
          >
            {loaderData.items.map((item) => (
              <AnnouncementRow key={item.id} item={item} now={loaderData.now} />
            ))}
          </Table>
        )}
      </Card>
    </div>
  )
}

/** The reader's zone once scripts run; before, the zone LocalTime prints in. */
function useReaderZone(): string {
  return useHydrated() ? Intl.DateTimeFormat().resolvedOptions().timeZone : fallbackZone
}

function CreateCard({ formKey, lastResult, zone, now }: { formKey: string; lastResult?: SubmissionResult<string[]>; zone: string; now: number }) {
  const { t } = useTranslation('admin')
  const [form, fields] = useZodForm(announcementFormSchema, { lastResult, defaultValue: { level: 'info' } })
  return (
    <Card>
      <CardTitle>{t('announcements.create')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 md:grid-cols-2" data-testid="create-announcement">
        <FormKey value={formKey} />
        <input type="hidden" name={fields.time_zone.name} value={zone} />
        <div className="md:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <SelectField meta={fields.level} label={t('announcements.level')} options={announcementLevels.map((level) => ({ value: level, label: t(`announcements.levels.${level}`) }))} className="md:col-span-2 md:max-w-60" />
        <TextareaField meta={fields.message_zh} label={t('announcements.messageZh')} maxLength={announcementMessageMax} rows={3} className="md:col-span-2" />
        <TextareaField meta={fields.message_en} label={t('announcements.messageEn')} hint={t('announcements.otherHint')} maxLength={announcementMessageMax} rows={2} />
        <TextareaField meta={fields.message_ja} label={t('announcements.messageJa')} hint={t('announcements.otherHint')} maxLength={announcementMessageMax} rows={2} />
        <Field meta={fields.starts_at} label={t('announcements.startsAt')} type="datetime-local" hint={t('announcements.timeHint', { zone, offset: offsetName(zone, now) })} />
        <Field meta={fields.ends_at} label={t('announcements.endsAt')} type="datetime-local" />
        <div className="md:col-span-2">
          <SubmitButton className="w-full sm:w-auto">{t('announcements.submit')}</SubmitButton>
        </div>
      </Form>
    </Card>
  )
}

const levelTones = { info: 'sky', warning: 'amber', critical: 'red' } satisfies Record<AdminAnnouncement['level'], BadgeTone>
const stateTones = { showing: 'green', scheduled: 'indigo', ended: 'zinc' } as const satisfies Record<string, BadgeTone>

function AnnouncementRow({ item, now }: { item: AdminAnnouncement; now: number }) {
  const { t } = useTranslation('admin')
  const state = item.ends_at <= now ? 'ended' : item.starts_at > now ? 'scheduled' : 'showing'
  return (
    <tr className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="announcement-row" data-state={state}>
      <td className="md:table-cell md:py-3 md:pr-3">
        <Badge tone={levelTones[item.level]}>{t(`announcements.levels.${item.level}`)}</Badge>
      </td>
      <td className="col-span-2 row-start-2 break-words md:table-cell md:py-3 md:pr-3">
        <p>{item.message_zh}</p>
        {item.message_en !== item.message_zh ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{item.message_en}</p> : null}
        {item.message_ja !== item.message_zh ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{item.message_ja}</p> : null}
      </td>
      <td className="col-span-2 text-xs text-zinc-500 md:table-cell md:py-3 md:pr-3 md:text-sm dark:text-zinc-400">
        {/* In the zone the form above reads its times in. */}
        <LocalTime ms={item.starts_at} /> – <LocalTime ms={item.ends_at} />
      </td>
      <td className="col-start-2 row-start-1 justify-self-end md:table-cell md:py-3 md:pr-3">
        <Badge tone={stateTones[state]}>{t(`announcements.states.${state}`)}</Badge>
      </td>
      <td className="col-span-2 justify-self-end md:table-cell md:py-3 md:text-right">
        {state !== 'ended' ? (
          <Form method="post">
            <input type="hidden" name="id" value={item.id} />
            <SubmitButton intent="remove" variant="secondary" size="sm" aria-label={`${t('announcements.remove')} ${item.id}`}>
              {t('announcements.remove')}
            </SubmitButton>
          </Form>
        ) : null}
      </td>
    </tr>
  )
}
