/**
 * Sign-in for external clients, with JavaScript on and off. The test plays
 * the client: it asks the running server for a device code and polls for tokens over HTTP, and
 * it runs a loopback HTTP server as the registered redirect URI of the code flow.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { admin, createUser, expect, signIn, test } from './fixtures.ts'
import { e2eEnv } from './env.ts'
import { elapse } from '../fixtures/time.ts'

interface Client {
  clientId: string
  secret: string
  redirectUri: string
  /** Every URL the loopback redirect target was asked for. */
  hits: string[]
  close(): Promise<void>
}

/** A loopback server as the client's redirect target, and the client registered with it. */
async function registerClient(name: string): Promise<Client> {
  const hits: string[] = []
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`
  const printed = await admin('client', 'create', '--name', name, '--redirect-uri', redirectUri)
  const value = (key: string) => new RegExp(`^${key}=(\\S+)$`, 'm').exec(printed)?.[1] ?? ''
  return {
    clientId: value('client_id'),
    secret: value('client_secret'),
    redirectUri,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The relay's envelope, read the way a client would. */
async function call(method: 'GET' | 'POST', path: string, body?: unknown, token?: string) {
  const response = await fetch(`${e2eEnv.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as any }
}

/** Polls the token call the way RFC 8628 asks: never faster than the interval. */
function devicePoller(client: Client, deviceSecret: string, intervalSeconds: number) {
  let last = 0
  return async () => {
    const wait = last + intervalSeconds * 1000 + 250 - Date.now()
    if (wait > 0) await elapse(wait)
    last = Date.now()
    return call('POST', '/api/oauth/internal/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_secret: deviceSecret,
      client_id: client.clientId,
    })
  }
}

test.describe('device code', () => {
  test('a person signs in, verifies and authorises; the polling client gets working tokens once', async ({ page }) => {
    const client = await registerClient('E2E Device CLI')
    const user = await createUser()
    const started = await call('GET', `/api/oauth/internal/device-code?client_id=${client.clientId}&scope=profile%20api`)
    expect(started.status).toBe(200)
    const device = started.body.data
    expect(device.device_code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    const poll = devicePoller(client, device.device_secret, device.interval)
    expect((await poll()).body.error.details.reason).toBe('authorization_pending')

    // The link the CLI prints: the prefilled code, then sign-in, then back to it.
    await page.goto(device.verification_uri_complete)
    await expect(page.getByLabel('设备码')).toHaveValue(device.device_code)
    await page.getByRole('button', { name: '验证' }).click()
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=/)
    await signIn(page, user)
    await expect(page).toHaveURL(/\/auth\/device-code\?code=/)
    await expect(page.getByLabel('设备码')).toHaveValue(device.device_code)
    await page.getByRole('button', { name: '验证' }).click()
    await expect(page.getByText('E2E Device CLI')).toBeVisible()
    await expect(page.getByText('基本账户信息')).toBeVisible()
    await expect(page.getByText('使用 API 服务')).toBeVisible()
    // Where the device asked from, and how long the grant lasts.
    await expect(page.getByTestId('device-origin')).toHaveText('该请求刚刚从 127.0.0.1 发起')
    await expect(page.getByText('授权最长有效 90 天')).toBeVisible()
    await page.getByRole('button', { name: '授权' }).click()
    await expect(page.getByText('设备码已授权')).toBeVisible()
    await expect(page.getByText('设备已获得授权')).toBeVisible()

    const granted = await poll()
    expect(granted.status).toBe(200)
    expect(granted.body.data).toMatchObject({ token_type: 'Bearer', scope: 'profile api' })
    const info = await call('GET', '/api/user/info', undefined, granted.body.data.access_token)
    expect(info.status).toBe(200)
    expect(info.body.data.user.username).toBe(user.username)
    const introspected = await call('POST', '/api/oauth/internal/verify-token', {
      token: granted.body.data.access_token,
      client_id: client.clientId,
      client_secret: client.secret,
    })
    expect(introspected.body.data).toMatchObject({ active: true, username: user.username, client_id: client.clientId, scope: 'profile api' })
    expect((await poll()).body.error.details.reason).toBe('invalid_grant')
    await client.close()
  })

  test('denial gives the client access_denied; a wrong code is refused with the documented message', async ({ page }) => {
    const client = await registerClient('E2E Denied CLI')
    const user = await createUser()
    const device = (await call('GET', `/api/oauth/internal/device-code?client_id=${client.clientId}`)).body.data
    const poll = devicePoller(client, device.device_secret, device.interval)

    await signIn(page, user)
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.goto('/auth/device-code')
    await page.getByLabel('设备码').fill('ZZZZ-ZZZZ')
    await page.getByRole('button', { name: '验证' }).click()
    await expect(page.getByText('设备码无效')).toBeVisible()
    // Typed as people do: lower case, no hyphen.
    await page.getByLabel('设备码').fill(device.device_code.replace('-', '').toLowerCase())
    await page.getByRole('button', { name: '验证' }).click()
    await expect(page.getByText('E2E Denied CLI')).toBeVisible()
    await page.getByRole('button', { name: '拒绝' }).click()
    await expect(page.getByText('已拒绝该设备的授权请求')).toBeVisible()

    const denied = await poll()
    expect(denied.status).toBe(400)
    expect(denied.body.error.details.reason).toBe('access_denied')
    await client.close()
  })
})

test.describe('authorisation code', () => {
  function pkce() {
    const verifier = randomBytes(32).toString('base64url')
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
  }

  function authorizeUrl(client: Client, challenge: string, redirectUri = client.redirectUri) {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: redirectUri,
      state: 'e2e-state',
      scope: 'profile billing',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })
    return `/auth/oauth-authorize?${query}`
  }

  test('authorise redirects to the registered URI with code and state; the verifier exchange works once', async ({ page }) => {
    const client = await registerClient('E2E Desktop App')
    const user = await createUser()
    const { verifier, challenge } = pkce()
    await page.goto(authorizeUrl(client, challenge))
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fauth%2Foauth-authorize%3F/)
    await signIn(page, user)
    await expect(page.getByText('E2E Desktop App')).toBeVisible()
    await expect(page.getByText('管理订阅和积分')).toBeVisible()
    await page.getByRole('button', { name: '授权' }).click()

    await page.waitForURL((url) => url.href.startsWith(client.redirectUri))
    const landed = new URL(page.url())
    expect(landed.searchParams.get('state')).toBe('e2e-state')
    const code = landed.searchParams.get('code')
    expect(code).toBeTruthy()

    const exchange = () =>
      call('POST', '/api/oauth/internal/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
        client_id: client.clientId,
        client_secret: client.secret,
      })
    const first = await exchange()
    expect(first.status).toBe(200)
    expect(first.body.data.scope).toBe('profile billing')
    expect((await call('GET', '/api/user/info', undefined, first.body.data.access_token)).body.data.user.username).toBe(user.username)
    const second = await exchange()
    expect(second.status).toBe(400)
    expect(second.body.error.details.reason).toBe('invalid_grant')
    await client.close()
  })

  test('deny redirects with error=access_denied and the state', async ({ page }) => {
    const client = await registerClient('E2E Denied App')
    const user = await createUser()
    await signIn(page, user)
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.goto(authorizeUrl(client, pkce().challenge))
    await page.getByRole('button', { name: '拒绝' }).click()
    await page.waitForURL((url) => url.href.startsWith(client.redirectUri))
    const landed = new URL(page.url())
    expect(Object.fromEntries(landed.searchParams)).toEqual({ error: 'access_denied', state: 'e2e-state' })
    await client.close()
  })

  test('a redirect URI the client did not register shows an error and never redirects', async ({ page }) => {
    const client = await registerClient('E2E Strict App')
    const user = await createUser()
    await signIn(page, user)
    await expect(page).toHaveURL(/\/dashboard$/)
    const response = await page.goto(authorizeUrl(client, pkce().challenge, `${client.redirectUri}/elsewhere`))
    expect(response?.status()).toBe(400)
    await expect(page.getByText('应用提供的回调地址与注册的不一致')).toBeVisible()
    await expect(page.getByRole('button', { name: '授权' })).toHaveCount(0)
    expect(new URL(page.url()).origin).toBe(e2eEnv.baseUrl)
    expect(client.hits).toEqual([])

    await page.goto(authorizeUrl({ ...client, clientId: 'rc_unknown' }, pkce().challenge))
    await expect(page.getByText('未知的应用，或应用信息不正确')).toBeVisible()
    expect(client.hits).toEqual([])
    await client.close()
  })
})
