/** The console's CSV downloads (relay/contract/csv.ts writes the lines): one file, whole. */
import { csvLine } from '#relay/contract/index.ts'

export function csvResponse(filename: string, header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): Response {
  const lines = [csvLine(header), ...rows.map((row) => csvLine(row))]
  // A byte-order mark, so spreadsheet programs read the file as UTF-8.
  return new Response(`\uFEFF${lines.join('\r\n')}\r\n`, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  })
}
