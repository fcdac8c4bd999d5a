/**
 * Drives the portal's production build in-process, as a browser would over HTTP: GET the page,
 * keep cookies, post the form with the hidden inputs the page rendered (honeypot included).
 * Run `npm run build` first (`npm test` does).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { NodeType, parse, type Node } from 'node-html-parser'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { buildDirectory, loadConfig, useConfig } from '../../relay/config.ts'

export const portalOrigin = 'http://portal.test'
const buildFile = resolve(buildDirectory(), 'server/index.js')

/** Loads the build with the configuration `env` makes (none: the one this process was handed already). */
export async function loadPortal(env?: Record<string, string>): Promise<(request: Request) => Promise<Response>> {
  if (!existsSync(buildFile)) throw new Error('No portal build: run `npm run build` first.')
  if (env) useConfig(loadConfig({ NODE_ENV: process.env.NODE_ENV, ...env }))
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild
  return createRequestHandler(build, 'production')
}

/** name → value of every hidden input and honeypot field of a rendered form. */
export function formInputs(html: string): Record<string, string> {
  const inputs: Record<string, string> = {}
  for (const input of parse(html).querySelectorAll('input[name]')) {
    const name = input.getAttribute('name')!
    if (input.getAttribute('type') !== 'hidden' && !name.endsWith('__confirm')) continue
    inputs[name] = input.getAttribute('value') ?? ''
  }
  return inputs
}

/**
 * The text of the element with `data-testid`, one space between the texts of its elements (as a
 * reader sees cells and labels apart) and whitespace collapsed; fails when there is none.
 */
export function textOf(html: string, testId: string): string {
  const element = parse(html).querySelector(`[data-testid="${testId}"]`)
  if (!element) throw new Error(`no ${testId} on the page`)
  const texts: string[] = []
  const collect = (node: Node): void => {
    if (node.nodeType === NodeType.TEXT_NODE) texts.push(node.textContent)
    else node.childNodes.forEach(collect)
  }
  collect(element)
  return texts.join(' ').replace(/\s+/g, ' ').trim()
}

/** A cookie jar and the requests of one browser. */
export class Visitor {
  readonly cookies = new Map<string, string>()

  constructor(private readonly handle: (request: Request) => Promise<Response>) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  /** Applies Set-Cookie headers; returns them for inspection. */
  keep(response: Response): string[] {
    const setCookies = response.headers.getSetCookie()
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq).trim()
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || pair!.slice(eq + 1) === ''
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, pair!.slice(eq + 1))
    }
    return setCookies
  }

  async get(path: string, cookie = this.cookieHeader()): Promise<Response> {
    const response = await this.handle(new Request(new URL(path, portalOrigin), { headers: { cookie } }))
    return response
  }

  /** Posts a form to `path` with the page's hidden inputs plus `fields`. */
  async submit(path: string, fields: Record<string, string>): Promise<Response> {
    const page = await this.get(path)
    this.keep(page)
    const body = new URLSearchParams({ ...formInputs(await page.text()), ...fields })
    const response = await this.handle(
      new Request(new URL(path, portalOrigin), {
        method: 'POST',
        body,
        redirect: 'manual',
        headers: {
          cookie: this.cookieHeader(),
          origin: portalOrigin,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
        },
      }),
    )
    this.keep(response)
    return response
  }
}

export const portalTestEnv = {
  SESSION_SECRET: 'integration-session-secret-0123456789abcdef',
  PUBLIC_URL: portalOrigin,
}
