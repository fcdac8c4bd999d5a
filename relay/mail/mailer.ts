import nodemailer from 'nodemailer'
import type { Logger } from '../logger.ts'

export interface Mail {
  to: string
  subject: string
  text: string
  /** The same content as HTML, sent beside the text as multipart/alternative. */
  html?: string
  /**
   * What the mail is for, in one line, e.g. `register code 123456`. The log mailer writes it so
   * that without SMTP (development) the code can still be read from the server log.
   */
  summary: string
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  close(): void
}

/** Sends over SMTP; `smtpUrl` is nodemailer's URL form, e.g. `smtps://user:pass@host:465`. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html })
    },
    close: () => transport.close(),
  }
}

/** Development without SMTP: one log line per mail, with its recipient and what it says. */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async send({ to, summary }) {
      logger.info('mail not sent (no SMTP_URL)', { to, summary })
    },
    close: () => undefined,
  }
}
