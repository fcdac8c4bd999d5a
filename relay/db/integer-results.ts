/**
 * Both drivers hand back 64-bit integers the same way (docs/decisions/010):
 * - an id column (see isIdColumn) is always a decimal string, whatever its size;
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

/**
 * Which columns and JSON fields hold 64-bit ids: `id`, `*_id`, and `*_by` (a user reference such
 * as `invited_by`). Name new columns and reply fields accordingly.
 */
export function isIdColumn(name: string): boolean {
  return name === 'id' || name.endsWith('_id') || name.endsWith('_by')
}

/** A database integer as the relay wants it outside the id columns. */
export function integerValue(value: bigint | string): number | string {
  const big = typeof value === 'bigint' ? value : BigInt(value)
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big)
    : big.toString()
}

function convert(column: string, value: unknown): unknown {
  if (isIdColumn(column) && (typeof value === 'bigint' || typeof value === 'number')) {
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
    const rows = args.result.rows.map((row) => {
      const out: UnknownRow = {}
      for (const [column, value] of Object.entries(row)) out[column] = convert(column, value)
      return out
    })
    return { ...args.result, rows }
  }
}
