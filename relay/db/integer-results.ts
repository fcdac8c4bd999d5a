/**
 * Both drivers hand back 64-bit integers the same way (docs/decisions/010-ids-strings-inside-bare-numbers-on-the-wire.md):
 * - an id column (isIdField of relay/contract/json.ts, the rule the wire uses too) is always a
 *   decimal string, whatever its size;
 * - any other integer is a JS number when it is a safe integer, else a decimal string.
 *
 * better-sqlite3 runs with safeIntegers on (every INTEGER arrives as a BigInt) and PostgreSQL's
 * int8/numeric parsers (set per pool in open-database.ts) keep unsafe values as strings; this
 * plugin then settles both on the rules above, by column name.
 */
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { integerValue, isIdField } from '../contract/json.ts'

function convert(column: string, value: unknown): unknown {
  if (isIdField(column) && (typeof value === 'bigint' || typeof value === 'number')) {
    return value.toString()
  }
  if (typeof value === 'bigint') return integerValue(value)
  return value
}

export class IntegerResultsPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return { ...args.result, rows: integerRows(args.result.rows) }
  }
}

/** The rows with their integers settled on the rules above (also db/prepared.ts's direct path). */
export function integerRows(rows: readonly UnknownRow[]): UnknownRow[] {
  return rows.map((row) => {
    const out: UnknownRow = {}
    for (const [column, value] of Object.entries(row)) out[column] = convert(column, value)
    return out
  })
}
