/**
 * End-to-end tests against the production build with its embedded relay on a fresh SQLite file,
 * and a real SMTP sink for the e-mailed codes. Every spec runs twice: with JavaScript (`js`) and
 * without (`no-js`), so progressive enhancement is tested, not assumed.
 *
 * Ports come from E2E_PORT / E2E_SMTP_PORT / E2E_MAIL_PORT so several runs can share a machine.
 * Chromium is Debian's (/usr/bin/chromium); Playwright never downloads a browser here.
 */
import { existsSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'
import { e2eEnv } from './tests/e2e/env.ts'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : 3,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: e2eEnv.baseUrl,
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: existsSync(chromiumPath) ? chromiumPath : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'js', use: { ...devices['Desktop Chrome'], javaScriptEnabled: true } },
    { name: 'no-js', use: { ...devices['Desktop Chrome'], javaScriptEnabled: false } },
  ],
  webServer: [
    {
      command: `node --import tsx tests/fixtures/smtp-sink.ts --smtp-port ${e2eEnv.smtpPort} --http-port ${e2eEnv.mailPort}`,
      url: `${e2eEnv.mailUrl}/messages`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // A fresh database each run; the same production start as the container's.
      command: `rm -rf ${e2eEnv.dataDir} && node --import tsx server/main.ts`,
      url: `${e2eEnv.baseUrl}/resources/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: e2eEnv.serverEnv,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
