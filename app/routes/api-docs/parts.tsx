/**
 * The pieces of the API reference's pages (docs/decisions/100-one-declaration-per-call.md): the section navigation, a call's
 * method and authentication, a schema as a tree of fields, and one call in full with its examples,
 * curl command and try-it form (docs/decisions/100-one-declaration-per-call.md).
 */
import type { TFunction } from 'i18next'
import { LoaderCircle } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useFetcher } from 'react-router'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { CodeBlock } from '#app/components/ui/code-block.tsx'
import { cn } from '#app/components/ui/cn.ts'
import { Input, Label } from '#app/components/ui/input.tsx'
import type { OperationView, TagView } from './reference.server.ts'
import type { SchemaField } from './schema.ts'

/** What the try-it action answers: the call, the values it was sent with, and the relay's reply. */
export interface TryOutcome {
  operation: string
  values: { path?: Record<string, string | undefined>; query?: Record<string, string | undefined> }
  status: number
  body: string
}

const methodTones: Record<string, BadgeTone> = { get: 'sky', post: 'green', put: 'amber', patch: 'amber', delete: 'red' }

export function MethodBadge({ method }: { method: string }) {
  return (
    <Badge tone={methodTones[method] ?? 'zinc'} className="w-16 justify-center font-mono font-semibold">
      {method.toUpperCase()}
    </Badge>
  )
}

export function AuthBadge({ auth }: { auth: OperationView['auth'] }) {
  const { t } = useTranslation('apidocs')
  if (auth.kind === 'user') {
    return <Badge tone="indigo">{t('auth.user', { scope: t(`scopes.${auth.scope}` as 'scopes.profile', { defaultValue: auth.scope }) })}</Badge>
  }
  return <Badge tone={auth.kind === 'admin' ? 'amber' : auth.kind === 'apiKey' ? 'green' : 'zinc'}>{t(`auth.${auth.kind}`)}</Badge>
}

/** The tag's title, or the tag itself for one a newer relay added. */
export function useTagTitle() {
  const { t } = useTranslation('apidocs')
  return (tag: string) => t(`tags.${tag}.title` as 'tags.health.title', { defaultValue: tag })
}

/** The call's summary in the reader's language, or the document's own. */
export function useSummary() {
  const { t } = useTranslation('apidocs')
  return (operation: { id: string; summary: string }) => t(`operations.${operation.id}` as 'operations.getApiHealth', { defaultValue: operation.summary })
}

/** Every section, and the overview: a row to scroll sideways on a phone, a column beside the page on a desktop. */
export function DocsNav({ tags, current }: { tags: TagView[]; current?: string }) {
  const { t } = useTranslation('apidocs')
  const title = useTagTitle()
  const item = (active: boolean) =>
    cn(
      'flex items-center justify-between gap-2 rounded-lg px-3 py-1.5 text-sm whitespace-nowrap transition-colors',
      active
        ? 'bg-indigo-50 font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300'
        : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
    )
  return (
    <nav aria-label={t('sections')} className="-mx-4 mb-6 overflow-x-auto px-4 lg:sticky lg:top-20 lg:mx-0 lg:mb-0 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto lg:px-0" data-testid="docs-nav">
      <ul className="flex gap-1 lg:flex-col">
        <li>
          <Link to="/api/docs" className={item(current === undefined)} aria-current={current === undefined ? 'page' : undefined}>
            {t('overview')}
          </Link>
        </li>
        {tags.map((tag) => (
          <li key={tag.tag}>
            <Link to={`/api/docs/${tag.tag}`} className={item(current === tag.tag)} aria-current={current === tag.tag ? 'page' : undefined}>
              <span>{title(tag.tag)}</span>
              <span className="text-xs text-zinc-400 tabular-nums dark:text-zinc-500">{tag.operations.length}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function typeLabel(field: SchemaField, t: TFunction<'apidocs'>): string {
  if (field.type === 'array') return t('labels.arrayOf', { type: field.itemType ?? 'any' })
  if (field.type === 'map') return t('labels.mapOf', { type: field.itemType ?? 'any' })
  if (field.type === 'oneOf') return t('labels.oneOf')
  return field.type
}

function FieldRow({ field, badge, reply }: { field: SchemaField; badge?: React.ReactNode; reply?: boolean }) {
  const { t, i18n } = useTranslation('apidocs')
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        {field.name ? <code className="font-mono text-[13px] font-semibold break-all text-zinc-900 dark:text-zinc-100">{field.name}</code> : null}
        {badge}
        <span className="font-mono text-xs text-indigo-700 dark:text-indigo-300">{typeLabel(field, t)}</span>
        {/* In a reply every field is there unless marked; in a request, what must be sent is. */}
        {field.name && !(reply && field.required) ? (
          <span className={cn('text-xs', field.required ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-zinc-500 dark:text-zinc-400')}>
            {field.required ? t('labels.required') : t('labels.optional')}
          </span>
        ) : null}
        {field.nullable ? <span className="text-xs text-zinc-500 dark:text-zinc-400">{t('labels.nullable')}</span> : null}
      </div>
      {field.constraints.length > 0 ? (
        <p className="mt-0.5 text-xs break-all text-zinc-500 dark:text-zinc-400">
          {field.constraints.map((constraint) => t(`constraints.${constraint.kind}`, { value: constraint.value })).join(' · ')}
        </p>
      ) : null}
      {field.description ? (
        <p lang={i18n.language === 'en' ? undefined : 'en'} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {field.description}
        </p>
      ) : null}
      <FieldChildren field={field} nested reply={reply} />
    </li>
  )
}

function FieldChildren({ field, nested, reply }: { field: SchemaField; nested?: boolean; reply?: boolean }) {
  const { t } = useTranslation('apidocs')
  if (field.children.length === 0 && field.variants.length === 0) return null
  return (
    <div className={cn(nested && 'mt-1.5 ml-1 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700')}>
      {field.children.length > 0 ? (
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {field.children.map((child) => (
            <FieldRow key={child.name} field={child} reply={reply} />
          ))}
        </ul>
      ) : null}
      {field.variants.map((variant, index) => (
        <div key={index} className="mt-1">
          <p className="text-xs font-medium text-zinc-500 dark:text-zinc-400">
            {t('labels.oneOf')} {index + 1}
          </p>
          {variant.children.length > 0 ? (
            <FieldChildren field={variant} nested reply={reply} />
          ) : (
            <ul>
              <FieldRow field={variant} reply={reply} />
            </ul>
          )}
        </div>
      ))}
    </div>
  )
}

/** A schema as a tree: an object's fields at the top, nested ones indented under theirs. */
export function SchemaTree({ field, testId, reply }: { field: SchemaField; testId?: string; reply?: boolean }) {
  const { t } = useTranslation('apidocs')
  const flat = field.type === 'object' && field.children.length > 0
  return (
    <div className="rounded-lg border border-zinc-200 px-3 dark:border-zinc-800" data-testid={testId}>
      {flat ? (
        <FieldChildren field={field} reply={reply} />
      ) : (
        <ul>
          <FieldRow field={field} reply={reply} />
        </ul>
      )}
      {field.type === 'object' && field.children.length === 0 ? <p className="pb-2 text-xs text-zinc-500 dark:text-zinc-400">{t('labels.noFields')}</p> : null}
    </div>
  )
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-zinc-900 dark:text-zinc-100">{title}</h3>
      {children}
    </div>
  )
}

export function OperationCard({ operation, signedIn, loginHref, lastTry }: { operation: OperationView; signedIn: boolean; loginHref: string; lastTry?: TryOutcome }) {
  const { t, i18n } = useTranslation('apidocs')
  const summary = useSummary()
  const parameters = operation.parameters
  return (
    <Card id={operation.id} aria-labelledby={`${operation.id}-title`} className="scroll-mt-20 space-y-5" data-testid={`operation-${operation.id}`}>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <MethodBadge method={operation.method} />
          <code className="font-mono text-sm font-semibold break-all text-zinc-900 dark:text-zinc-100">{operation.path}</code>
        </div>
        <h2 id={`${operation.id}-title`} className="text-lg font-semibold text-zinc-900 dark:text-white">
          <a href={`#${operation.id}`} className="hover:underline">
            {summary(operation)}
          </a>
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <AuthBadge auth={operation.auth} />
        </div>
        {operation.description ? (
          <div className="text-sm text-zinc-600 dark:text-zinc-400">
            {i18n.language === 'en' ? null : <p className="text-xs font-medium text-zinc-500 dark:text-zinc-500">{t('labels.declared')}</p>}
            <p lang="en">{operation.description}</p>
          </div>
        ) : null}
      </header>

      {parameters.length > 0 ? (
        <Section title={t('labels.parameters')}>
          <div className="rounded-lg border border-zinc-200 px-3 dark:border-zinc-800">
            <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {parameters.map((parameter) => (
                <FieldRow key={`${parameter.in}-${parameter.field.name}`} field={parameter.field} badge={<Badge tone="zinc">{t(`labels.in.${parameter.in}`)}</Badge>} />
              ))}
            </ul>
          </div>
        </Section>
      ) : null}
      {operation.body ? (
        <Section title={t('labels.requestBody')}>
          <SchemaTree field={operation.body} />
        </Section>
      ) : null}
      <Section title={operation.response.enveloped ? t('labels.response') : t('labels.responseBody', { type: operation.response.contentType })}>
        <SchemaTree field={operation.response.field} testId={`response-${operation.id}`} reply />
      </Section>
      {operation.statuses.length > 0 ? (
        <Section title={t('labels.errors')}>
          <ul className="space-y-1 text-sm">
            {operation.statuses.map((answer) => (
              <li key={answer.status} className="flex items-baseline gap-2">
                <code className="shrink-0 font-mono text-xs text-zinc-500 dark:text-zinc-400">{answer.status}</code>
                <span lang="en" className="text-zinc-700 dark:text-zinc-300">
                  {answer.description}
                </span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {operation.errors.length > 0 ? (
        <Section title={t('labels.errors')}>
          <ul className="grid gap-1 text-sm sm:grid-cols-2">
            {operation.errors.map((error) => (
              <li key={error.reason} className="flex items-baseline gap-2">
                <code className="shrink-0 font-mono text-xs text-zinc-500 dark:text-zinc-400">{error.code ?? error.reason}</code>
                <span className="text-zinc-700 dark:text-zinc-300">{t(`errors:reason.${error.reason}` as 'errors:reason.validation', { defaultValue: error.reason })}</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <div className="grid gap-4 xl:grid-cols-2">
        <div className="min-w-0 xl:col-span-2">
          <CodeBlock code={operation.curl} copyText={t('copy')} copyLabel={t('labels.curl')} />
        </div>
        {operation.requestExample ? (
          <div className="min-w-0">
            <CodeBlock code={operation.requestExample} copyText={t('copy')} copyLabel={t('labels.requestExample')} />
          </div>
        ) : null}
        {operation.responseExample ? (
          <details className={cn('min-w-0', !operation.requestExample && 'xl:col-span-2')}>
            <summary className="cursor-pointer text-sm font-medium text-indigo-600 dark:text-indigo-400">{t('labels.responseExample')}</summary>
            <div className="mt-2">
              <CodeBlock code={operation.responseExample} copyText={t('copy')} copyLabel={t('labels.responseExample')} />
            </div>
          </details>
        ) : null}
      </div>

      {operation.tryable ? <TryIt operation={operation} signedIn={signedIn} loginHref={loginHref} lastTry={lastTry} /> : null}
    </Card>
  )
}

/**
 * A real form posting to the page's action, which makes the call through the portal's relay
 * client with the user's session; once hydrated the same form goes through a fetcher, so the page
 * keeps its place and only the reply appears (docs/decisions/100-one-declaration-per-call.md).
 */
function TryIt({ operation, signedIn, loginHref, lastTry }: { operation: OperationView; signedIn: boolean; loginHref: string; lastTry?: TryOutcome }) {
  const { t } = useTranslation('apidocs')
  const fetcher = useFetcher<{ tried: TryOutcome }>({ key: `try-${operation.id}` })
  const outcome = fetcher.data?.tried ?? lastTry
  const busy = fetcher.state !== 'idle'
  const inputs = operation.parameters.filter((parameter) => parameter.in !== 'header')
  return (
    <section aria-labelledby={`${operation.id}-try`} className="rounded-xl border border-indigo-200 bg-indigo-50/40 p-4 dark:border-indigo-900/60 dark:bg-indigo-950/20">
      <h3 id={`${operation.id}-try`} className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        {t('tryIt.title')}
      </h3>
      {signedIn ? (
        <fetcher.Form method="post" action={`#${operation.id}`} className="mt-2 space-y-3" data-testid={`try-${operation.id}`}>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('tryIt.hint')}</p>
          <input type="hidden" name="operation" value={operation.id} />
          {inputs.length > 0 ? (
            <div className="grid gap-3 sm:grid-cols-2">
              {inputs.map((parameter) => {
                const name = parameter.field.name!
                const typed = outcome?.values[parameter.in as 'path' | 'query']?.[name]
                return (
                  <div key={`${parameter.in}-${name}`} className="space-y-1">
                    <Label htmlFor={`${operation.id}-${parameter.in}-${name}`} className="font-mono text-xs">
                      {name}
                    </Label>
                    <Input
                      id={`${operation.id}-${parameter.in}-${name}`}
                      name={`${parameter.in}.${name}`}
                      defaultValue={typed ?? (parameter.field.required ? parameter.example : '')}
                      required={parameter.field.required}
                      placeholder={parameter.example}
                      className="font-mono"
                    />
                  </div>
                )
              })}
            </div>
          ) : null}
          <Button type="submit" variant="primary" aria-busy={busy || undefined} disabled={busy}>
            {busy ? <LoaderCircle className="size-4 animate-spin" /> : null}
            {t('tryIt.send')}
          </Button>
        </fetcher.Form>
      ) : (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          {t('tryIt.signIn')}{' '}
          <Link to={loginHref} className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">
            {t('tryIt.signInLink')}
          </Link>
        </p>
      )}
      {outcome ? (
        <div className="mt-3 space-y-2" aria-live="polite" data-testid={`try-result-${operation.id}`}>
          <div className="flex items-center gap-2 text-sm">
            <span className="font-medium text-zinc-900 dark:text-zinc-100">{t('tryIt.result')}</span>
            <Badge tone={outcome.status < 300 ? 'green' : 'red'}>{t('tryIt.status', { status: outcome.status })}</Badge>
          </div>
          <pre className="max-h-96 overflow-auto rounded-lg bg-zinc-950 px-4 py-3 font-mono text-[13px] leading-relaxed text-zinc-100 ring-1 ring-zinc-800 dark:bg-black/40">
            <code>{outcome.body}</code>
          </pre>
        </div>
      ) : null}
    </section>
  )
}
