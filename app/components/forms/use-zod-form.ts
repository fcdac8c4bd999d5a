/**
 * The one way a form is set up (docs/conventions.md): Conform, validated by the same zod schema
 * the action uses, on submit first and then as the user types. Validating on blur moved the
 * layout under the pointer, so a click on the submit button could land elsewhere.
 *
 * `schema` may be a function of the submitter's `intent`, for pages whose buttons submit
 * different steps of one form (send code, then register); on public pages it is given as
 * `lazySchema(() => import(…))`, so zod is not part of their first load.
 *
 * The zod adapter (and a lazy schema) is loaded once the form is mounted in the browser; until it
 * arrives, a submit goes to the server, which validates it the same way, as it does without
 * JavaScript (docs/decisions/030-first-paint-and-charts.md).
 *
 * A form whose post settles without an answer for it (the action redirected: saved) starts over
 * from its defaults, as the page rendered anew shows it without JavaScript; input typed into it
 * otherwise stays through any revalidation (docs/decisions/005-forms.md).
 */
import { useForm, type SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { useNavigation } from 'react-router'
import type { z } from 'zod'

type SchemaOrPicker<S extends z.ZodType> = S | ((intent: FormDataEntryValue | null) => z.ZodType)

const lazy = Symbol('lazy schema')

/** A schema downloaded once the page is interactive: `lazySchema(() => import('#app/schemas/auth.ts').then((m) => m.loginSchema))`. */
export interface LazySchema<S extends z.ZodType> {
  [lazy]: () => Promise<SchemaOrPicker<S>>
}

export function lazySchema<S extends z.ZodType>(load: () => Promise<SchemaOrPicker<S>>): LazySchema<S> {
  return { [lazy]: load }
}

type Validate = (formData: FormData) => unknown

export function useZodForm<S extends z.ZodType>(
  schema: SchemaOrPicker<S> | LazySchema<S>,
  options: { lastResult?: SubmissionResult<string[]> | null; defaultValue?: Partial<z.input<S>>; id?: string } = {},
) {
  const [validate, setValidate] = useState<Validate | null>(null)
  useEffect(() => {
    let mounted = true
    void Promise.all([import('@conform-to/zod/v4'), lazy in schema ? schema[lazy]() : schema]).then(([{ parseWithZod }, resolved]) => {
      const pick = (intent: FormDataEntryValue | null) => (typeof resolved === 'function' ? resolved(intent) : resolved)
      if (mounted) setValidate(() => (formData: FormData) => parseWithZod(formData, { schema: pick(formData.get('intent')) }))
    })
    return () => {
      mounted = false
    }
    // The schema is fixed for the form's life.
  }, [])
  // The answer on screen when this form was last posted (undefined when it was not), and whether
  // the navigation of that post has been seen under way.
  const posted = useRef<{ answer: unknown; underway: boolean } | undefined>(undefined)
  const [form, fields] = useForm<z.input<S> & Record<string, unknown>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    onValidate: validate ? ({ formData }) => validate(formData) as never : undefined,
    onSubmit: (_event, { method }) => {
      // A GET form's values are the URL's, which the next page renders from.
      if (method !== 'GET') posted.current = { answer: options.lastResult, underway: false }
    },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  const navigation = useNavigation()
  useEffect(() => {
    const post = posted.current
    if (post === undefined) return
    if (navigation.state !== 'idle') {
      post.underway = true
      return
    }
    // A press while the page hydrates can post before this effect first runs, still idle: that
    // post has not settled yet, and resetting now would empty the fields of the answer to come.
    if (!post.underway) return
    posted.current = undefined
    const { answer } = post
    // A new answer (errors, or a reply that resets the form itself) is Conform's to show.
    if (options.lastResult && options.lastResult !== answer) return
    // The native reset also reaches Conform, which renews the fields' keys, so they mount again from the defaults this render brought.
    document.forms.namedItem(form.id)?.reset()
    // Only the end of a navigation settles a post; the answer and form are read as they are then.
  }, [navigation.state])
  return [form, fields] as const
}
