/** What every step of the subscription screen's two flows answers (route.tsx, the cards). */
import type { SubmissionResult } from '@conform-to/react'
import type { RedeemCodeCheck, TeamPreview } from '#relay/contract/index.ts'
import type { SubscriptionIntent } from './forms.ts'

/** What every step of the two flows answers: the form's state and, after a validation, the next step. */
export interface StepData {
  intent: SubscriptionIntent
  result: SubmissionResult<string[]>
  /** The validated code the confirm step carries in a hidden input. */
  code?: string
  check?: RedeemCodeCheck
  preview?: TeamPreview
  /** The confirm step's form key: confirming twice (reload, double click) redeems or joins once. */
  formKey?: string
}
