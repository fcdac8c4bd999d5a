/**
 * Between the password step and the code step of a two-factor sign-in there is no session yet
 * (docs/decisions/099-sign-in.md). The relay's challenge — a signed five-minute statement that the password
 * was right — waits in this cookie with the choices made on the first form (remember me, where to
 * go afterwards), so the code form is a plain form on its own page, with or without JavaScript.
 * httpOnly, signed with SESSION_SECRET, limited to the login paths, gone after five minutes or
 * the code step.
 */
import { createCookie } from 'react-router'
import { z } from 'zod'
import { servedOverHttps, sessionSecrets } from '#server/env.ts'

const pendingSchema = z.object({ challenge: z.string().min(1).max(1024), remember: z.boolean(), redirectTo: z.string().max(2048) })
export type PendingSignIn = z.infer<typeof pendingSchema>

function challengeCookie(maxAge: number) {
  return createCookie('login-challenge', { path: '/auth/login', httpOnly: true, sameSite: 'lax', secrets: sessionSecrets(), secure: servedOverHttps(), maxAge })
}

export async function pendingSignInHeader(pending: PendingSignIn, expiresInSeconds: number): Promise<string> {
  return challengeCookie(expiresInSeconds).serialize(pending)
}

export async function readPendingSignIn(request: Request): Promise<PendingSignIn | null> {
  const parsed = pendingSchema.safeParse(await challengeCookie(0).parse(request.headers.get('cookie')))
  return parsed.success ? parsed.data : null
}

export async function clearPendingSignInHeader(): Promise<string> {
  return challengeCookie(0).serialize('')
}
