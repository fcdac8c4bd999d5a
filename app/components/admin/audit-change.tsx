/**
 * What an audit entry changed, as a reader wants it: only the fields that differ between the
 * state recorded before and after, each as `field: before → after`, times in the reader's zone
 * (epoch milliseconds stored under `*_timestamp` / `*_at` names), lists joined, yes/no for flags.
 * A creation or removal (one side empty) lists the fields it has.
 */
import { LocalTime } from '#app/components/local-time.tsx'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function parsed(text: string | null): Record<string, Json> | null {
  if (text === null) return null
  try {
    const value = JSON.parse(text) as Json
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { value }
  } catch {
    return { value: text }
  }
}

/** The fields that differ, in the order they were recorded. */
export function changedFields(before: string | null, after: string | null): Array<{ field: string; before: Json | undefined; after: Json | undefined }> {
  const [a, b] = [parsed(before), parsed(after)]
  const fields = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])]
  return fields
    .map((field) => ({ field, before: a?.[field], after: b?.[field] }))
    .filter(({ before: x, after: y }) => a === null || b === null || JSON.stringify(x) !== JSON.stringify(y))
}

const isTime = (field: string) => /(_timestamp|_at)$/.test(field)

function Value({ field, value }: { field: string; value: Json | undefined }) {
  if (value === undefined || value === null) return <span className="text-zinc-400 dark:text-zinc-500">—</span>
  if (typeof value === 'number' && isTime(field)) return <LocalTime ms={value} />
  if (typeof value === 'boolean') return <>{value ? '✓' : '✗'}</>
  if (Array.isArray(value)) return <>{value.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item))).join(', ') || '∅'}</>
  if (typeof value === 'object') return <>{JSON.stringify(value)}</>
  return <>{String(value)}</>
}

export function AuditChange({ before, after }: { before: string | null; after: string | null }) {
  const fields = changedFields(before, after)
  if (fields.length === 0) return <span className="text-xs text-zinc-400 dark:text-zinc-500">—</span>
  return (
    <dl className="space-y-0.5 text-xs break-all text-zinc-600 dark:text-zinc-400" data-testid="audit-change">
      {fields.map(({ field, before: from, after: to }) => (
        <div key={field}>
          <dt className="inline font-mono text-zinc-500 dark:text-zinc-500">{field}: </dt>
          <dd className="inline">
            {before !== null && after !== null ? (
              <>
                <Value field={field} value={from} /> → <Value field={field} value={to} />
              </>
            ) : (
              <Value field={field} value={after !== null ? to : from} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}
