import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { isRouteErrorResponse, ServerRouter, type EntryContext, type HandleDataRequestFunction, type HandleErrorFunction, type RouterContextProvider } from 'react-router'
import { i18nForDocument } from '#app/middleware/i18n.server.ts'
import { StylesheetProvider } from '#app/utils/inline-stylesheet.tsx'
import { NonceProvider } from '#app/utils/nonce.tsx'
import { preloadsAfterShell } from '#app/utils/preloads-after-shell.server.ts'
import { applySecurityHeaders } from '#app/utils/security-headers.server.ts'
import stylesheet from '#app/styles/app.css?inline'

export const streamTimeout = 5_000

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = randomBytes(16).toString('base64')
  applySecurityHeaders(responseHeaders, nonce)
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }

  const i18n = await i18nForDocument(request, loadContext)

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    let timeoutId: ReturnType<typeof setTimeout> | undefined
    const userAgent = request.headers.get('user-agent')
    // Crawlers and no-JS visitors both get complete HTML; streaming only helps the shell first.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        {/* Inlined in builds; the dev server links it instead, for hot reload (docs/decisions/030-first-paint-and-charts.md). */}
        <StylesheetProvider value={import.meta.env.DEV ? null : stylesheet}>
          <I18nextProvider i18n={i18n}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nextProvider>
        </StylesheetProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId)
              timeoutId = undefined
              callback()
            },
          })
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          const reordered = preloadsAfterShell()
          reordered.pipe(body)
          pipe(reordered)
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    // Armed only once `abort` exists: a render that never finishes is cut off instead of hanging.
    timeoutId = setTimeout(() => abort(), streamTimeout + 1000)
  })
}

/**
 * Logs what went wrong on the server. A refusal of the visitor's request (404, 405, 400: paths no
 * route matches, methods no route takes) is the visitor's business, not an error of ours, and
 * anyone can send such requests by the thousand: those are not logged.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  console.error(error)
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers)
  return response
}
