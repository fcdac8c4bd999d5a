/** Join a team: validate, then the comparison and an irreversible join. */
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import type { TeamPreview } from '#relay/contract/index.ts'
import { Field, FormErrors } from '#app/components/forms/field.tsx'
import { FormKey } from '#app/components/forms/form-key.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { useZodForm } from '#app/components/forms/use-zod-form.ts'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Notice } from '#app/components/ui/notice.tsx'
import { Table } from '#app/components/ui/table.tsx'
import { useNumberFormat } from '#app/utils/use-number-format.ts'
import { teamFormSchema } from './forms.ts'
import type { StepData } from './steps.ts'

export function JoinTeamCard({ step, teamName }: { step: StepData | undefined; teamName: string | null }) {
  const { t } = useTranslation('subscription')
  return (
    <Card aria-labelledby="join-title" data-testid="join-team">
      <CardTitle id="join-title">{step?.preview ? t('join.compareTitle', { team: step.preview.team.team_name }) : t('join.title')}</CardTitle>
      {teamName ? (
        // Joining is irreversible (docs/product.md): a member cannot join another team.
        <Notice tone="info" className="mt-4">
          {t('join.inTeam', { name: teamName })}
        </Notice>
      ) : step?.preview && step.code ? (
        <JoinConfirm code={step.code} preview={step.preview} formKey={step.formKey ?? ''} />
      ) : (
        // As the redeem form: afresh once another form answered.
        <JoinForm key={step ? 'answered' : 'fresh'} lastResult={step?.result} />
      )}
    </Card>
  )
}

function JoinForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('subscription')
  const [form, fields] = useZodForm(teamFormSchema, { id: 'join', lastResult })
  return (
    <>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('join.subtitle')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.teamCode} label={t('join.code')} autoComplete="off" spellCheck={false} className="[&_input]:font-mono" />
        <SubmitButton intent="validate-team">{t('join.validate')}</SubmitButton>
      </Form>
    </>
  )
}

function JoinConfirm({ code, preview, formKey }: { code: string; preview: TeamPreview; formKey: string }) {
  const { t } = useTranslation('subscription')
  const format = useNumberFormat()
  const current = preview.replaces_personal ? preview.current : null
  return (
    <Form method="post" className="mt-4 space-y-4">
      <input type="hidden" name="teamCode" value={code} />
      <FormKey value={formKey} />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {t('join.compareSubtitle', { package: preview.package.name, count: preview.team.member_count })}
      </p>
      <Table
        testId="team-comparison"
        columns={[
          { id: 'field', label: t('join.field') },
          { id: 'current', label: t('join.currentPlan'), align: 'end' },
          { id: 'team', label: t('join.teamPlan'), align: 'end', className: 'text-indigo-600 dark:text-indigo-400' },
        ]}
      >
        {preview.comparison.map((row) => (
          <tr key={row.field}>
            <th scope="row" className="py-2 pr-3 font-normal text-zinc-600 dark:text-zinc-400">
              {t(`join.fields.${row.field}`)}
            </th>
            <td className="py-2 pr-3 text-right tabular-nums">{row.current === null ? t('join.none') : format(row.current)}</td>
            <td className="py-2 text-right font-semibold tabular-nums">{format(row.team)}</td>
          </tr>
        ))}
      </Table>
      <Notice tone="warning" data-testid="join-warning">
        <p className="font-semibold">{t('join.warningTitle')}</p>
        <p className="mt-1">{t('join.warning')}</p>
        {current ? (
          <p className="mt-1">{t('join.warningReplace', { name: current.package.name, points: format(current.remaining_points) })}</p>
        ) : null}
      </Notice>
      <div className="flex flex-wrap gap-3">
        <SubmitButton intent="join-team" variant="danger">
          {t('join.confirm')}
        </SubmitButton>
        <Link to="/subscription" className={buttonClass({ variant: 'secondary' })}>
          {t('join.cancel')}
        </Link>
      </div>
    </Form>
  )
}
