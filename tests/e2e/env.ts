/** Where the end-to-end run's servers listen and what they are started with. */
const port = Number(process.env.E2E_PORT ?? 3200)
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 25)
const mailPort = Number(process.env.E2E_MAIL_PORT ?? port + 26)
const dataDir = `data/e2e-${port}`
const baseUrl = `http://127.0.0.1:${port}`

export const e2eEnv = {
  port,
  smtpPort,
  mailPort,
  dataDir,
  baseUrl,
  mailUrl: `http://127.0.0.1:${mailPort}`,
  databaseUrl: `${dataDir}/relay.sqlite`,
  serverEnv: {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATABASE_URL: `${dataDir}/relay.sqlite`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Relay Portal <no-reply@relay.test>',
    SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789',
    JWT_SECRET: 'e2e-jwt-secret-0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'warn',
    // As behind a reverse proxy: each test's browser comes from an address of its own
    // (fixtures.ts), so the suite's many sign-ins do not share one address's limits.
    TRUST_PROXY: 'true',
    // Cheap password hashes for a fast suite (production keeps the default, 15).
    PASSWORD_COST: '12',
  } as Record<string, string>,
}
