/**
 * A batch of redeem codes as CSV: the code page's generate form posted here. Its form key makes
 * the relay answer a repeat with the batch it made first, so the page's Download button (the same
 * values and key again) gets the codes just shown, and a reload downloads them once more.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import type { Route } from './+types/codes-batch'
import { endpoints } from '#relay/contract/index.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { generateCodesSchema } from '#app/schemas/admin.ts'
import { csvResponse } from '#app/utils/csv-response.server.ts'
import { formKeyOf } from '#app/utils/form-key.server.ts'
import { badForm, refusalOutcome } from './outcome.server.ts'

const back = '/admin/codes'

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: generateCodesSchema })
  if (submission.status !== 'success') return badForm(back)
  const asked = submission.value
  try {
    const batch = await getRelay(context).call(endpoints.admin.generateCodes, { body: asked, ...formKeyOf(formData) })
    return csvResponse(
      `redeem-codes-${batch.batch_id}.csv`,
      ['code', 'batch_id', 'package', 'expires_days'],
      batch.codes.map((code) => [code, batch.batch_id, asked.package_code, asked.expires_days ?? '']),
    )
  } catch (error) {
    // A refusal (an unlisted package, the relay down) goes back to the page with its reason.
    return refusalOutcome(back, error)
  }
}

/** The page is where a batch is asked for. */
export function loader() {
  return redirect(back)
}
