/**
 * Contract paths are written OpenAPI style (`/api/user/tickets/{id}`), as the relay declares
 * them; callers fill the parameters in with this.
 */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`)
    return encodeURIComponent(value)
  })
}
