/**
 * A relay download handed on to the browser as it streams, so a long export never sits in the
 * portal's memory: its type and file name kept, never cached.
 */
export function downloadResponse(answer: Response): Response {
  const headers = new Headers({ 'cache-control': 'no-store' })
  for (const name of ['content-type', 'content-disposition']) {
    const value = answer.headers.get(name)
    if (value) headers.set(name, value)
  }
  return new Response(answer.body, { headers })
}
