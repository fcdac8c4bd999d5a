/**
 * Redeem code rows as CSV (never the codes: they are stored hashed): those ticked on the code
 * list, or with none ticked, the rows the list shows for its filter and page. The list's bulk form
 * reads it with GET, with or without JavaScript.
 */
import type { Route } from './+types/codes-export'
import { endpoints, idSchema, redeemCodeStates } from '#relay/contract/index.ts'
import { oneOf } from '#app/components/admin/list-controls.tsx'
import { getRelay } from '#app/middleware/session.server.ts'
import { csvResponse } from '#app/utils/csv-response.server.ts'
import { pageParam } from '#app/utils/page-param.ts'
import { tickedRows } from './outcome.server.ts'

const header = ['id', 'batch_id', 'package', 'package_name', 'state', 'created', 'expires', 'used_by', 'used', 'revoked']
const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString())

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const ids = tickedRows(url).filter((id) => idSchema.safeParse(id).success)
  const batch = url.searchParams.get('batch')
  const query =
    ids.length > 0
      ? { ids: ids.slice(0, 100).join(','), page: 1, pageSize: 100 }
      : { state: oneOf(url, 'state', redeemCodeStates), batch: batch && idSchema.safeParse(batch).success ? batch : undefined, page: pageParam(request), pageSize: 25 }
  const codes = await getRelay(context).call(endpoints.admin.redeemCodes, { query })
  return csvResponse(
    'redeem-code-rows.csv',
    header,
    codes.items.map((code) => [
      code.id,
      code.batch_id ?? '',
      code.package_code,
      code.package_name,
      code.state,
      iso(code.create_timestamp),
      iso(code.expires_timestamp),
      code.used_by_name ?? '',
      iso(code.used_timestamp),
      iso(code.revoked_timestamp),
    ]),
  )
}
