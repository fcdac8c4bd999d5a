/** The CSV the relay's and the console's downloads write: one quoting rule for both. */

/** RFC 4180 quoting; a leading = + - @ is neutralised so a spreadsheet never runs a key's name as a formula. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** One record: numbers as they print, text quoted as needed. */
export function csvLine(cells: ReadonlyArray<string | number>): string {
  return cells.map((cell) => (typeof cell === 'number' ? String(cell) : csvCell(cell))).join(',')
}
