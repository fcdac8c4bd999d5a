/** The theme cookie; the language cookie lives with the i18n middleware. */
import { createCookie } from 'react-router'
import { isTheme, type Theme } from './theme.ts'
import { servedOverHttps } from '#server/env.ts'

const oneYear = 60 * 60 * 24 * 365

export const themeCookie = createCookie('theme', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: oneYear,
  secure: servedOverHttps(),
})

export async function readTheme(request: Request): Promise<Theme> {
  const value: unknown = await themeCookie.parse(request.headers.get('cookie'))
  return isTheme(value) ? value : 'system'
}
