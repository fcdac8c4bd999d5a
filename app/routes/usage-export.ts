/**
 * The usage log as CSV (docs/decisions/111-bounded-history-reads.md): the filters of /usage, passed to the relay's export,
 * whose streamed body is handed on as it comes, so a long range never sits in the portal's memory.
 * A plain link to it downloads the file, with or without JavaScript.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/usage-export'
import { endpoints } from '#relay/contract/index.ts'
import { getRelay } from '#app/middleware/session.server.ts'
import { usageFiltersSchema, usageQuery } from '#app/schemas/usage.ts'
import { downloadResponse } from '#app/utils/download-response.server.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: usageFiltersSchema })
  if (submission.status !== 'success') return new Response(null, { status: 400 })
  return downloadResponse(await getRelay(context).download(endpoints.usage.export, { query: usageQuery(submission.value) }))
}
