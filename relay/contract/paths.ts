/**
 * Contract paths are written OpenAPI style (`/api/user/tickets/{id}`), as the relay declares
 * them; callers fill the parameters in with `fillPath`. `idPathParams` validates an `{id}`.
 */
import { z } from 'zod'
import { idInputSchema } from './ids.ts'

export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`)
    return encodeURIComponent(value)
  })
}

/** A 64-bit id in the path (ids.ts): anything else is a 404, never a database error. */
export const idPathParams = z.object({ id: idInputSchema })
