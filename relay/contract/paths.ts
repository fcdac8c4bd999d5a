/**
 * Contract paths are written OpenAPI style (`/api/user/tickets/{id}`), as the relay declares
 * them; callers fill the parameters in with `fillPath`. `idPathParams` validates an `{id}`.
 */
import { z } from 'zod'

export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`)
    return encodeURIComponent(value)
  })
}

const maxBigint = 2n ** 63n - 1n

/** A 64-bit id in the path: anything beyond BIGINT would make PostgreSQL fail instead of a 404. */
export const idPathParams = z.object({
  id: z.string().refine((id) => /^\d{1,19}$/.test(id) && BigInt(id) <= maxBigint, 'must be a 64-bit id'),
})
