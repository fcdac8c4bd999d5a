/** Case-insensitive "contains" searches, written once for both databases. */
import { sql, type RawBuilder } from 'kysely'

/** `lower(column) LIKE %text%`, LIKE's own wildcards in `text` matched literally. */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`
}
