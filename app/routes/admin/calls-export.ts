/**
 * The operators' call log as CSV: the filters of /admin/calls, passed to the relay's export, whose
 * streamed body is handed on as it comes. A plain link to it downloads the file, with or without
 * JavaScript.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/calls-export'
import { endpoints } from '#relay/contract/index.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { adminCallsFiltersSchema, adminCallsQuery } from '#app/schemas/admin-calls.ts'
import { downloadResponse } from '#app/utils/download-response.server.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: adminCallsFiltersSchema })
  if (submission.status !== 'success') return new Response(null, { status: 400 })
  return downloadResponse(await getRelay(context).download(endpoints.admin.exportCalls, { query: adminCallsQuery(submission.value) }))
}
