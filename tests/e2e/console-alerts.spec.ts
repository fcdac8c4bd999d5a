/**
 * Alert webhooks from the console, with JavaScript on and off: a bad address is refused with the
 * typed name kept; a signed JSON webhook is added once (its secret shown once, a reload without
 * scripts shows the same one and adds none); "send test" reaches a loopback receiver with a valid
 * signature and shows as delivered; removing asks first.
 */
import { createHmac } from 'node:crypto'
import { startWebhookReceiver } from '../fixtures/webhook-receiver.ts'
import { expect, signInAsOperator, test, uniqueName } from './fixtures.ts'

test('an admin adds a signed webhook, sends it a test that arrives signed, sees it delivered and removes the webhook', async ({ page, jsEnabled }) => {
  const receiver = await startWebhookReceiver()
  try {
    await signInAsOperator(page)
    await page.goto('/admin/alerts')
    const form = page.getByTestId('add-webhook')
    const name = uniqueName('值班 ')
    await form.getByLabel('名称').fill(name)
    await form.getByLabel('地址').fill('ftp://example.com/hook')
    await form.getByRole('button', { name: '添加' }).click()
    await expect(form.getByText('请填写 http:// 或 https:// 开头的地址')).toBeVisible()
    await expect(form.getByLabel('名称')).toHaveValue(name)

    await form.getByLabel('地址').fill(receiver.url)
    await form.getByRole('button', { name: '添加' }).click()
    const added = page.getByTestId('added-webhook')
    await expect(added).toContainText(`已添加 Webhook「${name}」`)
    const secret = await added.getByLabel('签名密钥').inputValue()
    expect(secret).toMatch(/^whsec_/)
    if (!jsEnabled) {
      // A reload posts the form again: the same secret, no second webhook.
      await page.reload()
      await expect(page.getByTestId('added-webhook').getByLabel('签名密钥')).toHaveValue(secret)
    }
    await page.goto('/admin/alerts')
    const card = page.getByTestId('webhook').filter({ hasText: name })
    await expect(card).toHaveCount(1)
    await expect(card).toContainText('JSON（签名）')
    await expect(card).not.toContainText('/alerts')

    await card.getByRole('button', { name: '发送测试' }).click()
    await expect(page.getByText('测试消息已排队，几秒内送达')).toBeVisible()
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1)
    const [message] = receiver.received
    const { t, v1 } = Object.fromEntries(String(message!.headers['x-relay-signature']).split(',').map((part) => part.split('=')))
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${message!.body}`).digest('hex'))
    expect(JSON.parse(message!.body)).toMatchObject({ event: 'test', phase: 'test', title: expect.stringContaining('测试告警') })
    await expect(async () => {
      await page.goto('/admin/alerts')
      await expect(page.getByTestId('delivery').filter({ hasText: name }).first()).toHaveAttribute('data-status', 'sent')
    }).toPass({ timeout: 10_000 })

    await page.getByTestId('webhook').filter({ hasText: name }).locator('summary').click()
    await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click()
    await expect(page.getByText('已删除 Webhook')).toBeVisible()
    await expect(page.getByTestId('webhook').filter({ hasText: name })).toHaveCount(0)
    // Its delivery stays listed under its name.
    await expect(page.getByTestId('delivery').filter({ hasText: name })).toHaveCount(1)
  } finally {
    await receiver.close()
  }
})
