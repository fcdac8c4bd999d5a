/**
 * Toasts (docs/product.md) travel in a flash cookie: an action sets it on its redirect, the next
 * page render reads it in the root loader and the toast middleware clears it. The server renders
 * the toast, so it shows without JavaScript.
 */
import { createCookie, redirect } from 'react-router'
import { z } from 'zod'
import { servedOverHttps, sessionSecrets } from '#server/env.ts'

export const toastTypes = ['success', 'error', 'warning', 'info'] as const
export type ToastType = (typeof toastTypes)[number]

const toastSchema = z.object({
  type: z.enum(toastTypes),
  /** A translation key; `values` fill its placeholders. */
  key: z.string().max(200),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Milliseconds; 0 keeps the toast until closed. Defaults: 4000, errors 5000. */
  duration: z.number().int().min(0).max(60_000).optional(),
  id: z.string(),
})
export type Toast = z.infer<typeof toastSchema>
export type ToastInput = Omit<Toast, 'id'>

export const toastCookieName = 'toast'

function toastCookie() {
  return createCookie(toastCookieName, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secrets: sessionSecrets(),
    secure: servedOverHttps(),
  })
}

export function defaultDuration(type: ToastType): number {
  return type === 'error' ? 5000 : 4000
}

export async function toastHeader(toast: ToastInput): Promise<string> {
  const full: Toast = { ...toast, duration: toast.duration ?? defaultDuration(toast.type), id: crypto.randomUUID() }
  return toastCookie().serialize(full, { maxAge: 60 })
}

export async function readToast(request: Request): Promise<Toast | null> {
  const value: unknown = await toastCookie().parse(request.headers.get('cookie'))
  const parsed = toastSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

export async function clearToastHeader(): Promise<string> {
  return toastCookie().serialize('', { maxAge: 0 })
}

/** Post/Redirect/Get with a toast. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit): Promise<Response> {
  const headers = new Headers(init?.headers)
  headers.append('Set-Cookie', await toastHeader(toast))
  return redirect(url, { ...init, headers })
}
