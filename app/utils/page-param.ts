/** The `?page=` of a paged screen: a whole number from 1, anything else is page 1. */
export function pageParam(request: Request): number {
  const page = Number(new URL(request.url).searchParams.get('page'))
  return Number.isSafeInteger(page) && page >= 1 ? page : 1
}
