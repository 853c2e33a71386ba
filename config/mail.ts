/*
 * Outgoing mail (docs/design.md §2): SMTP when SMTP_HOST is set, otherwise `.eml`
 * files under DATA_DIR/mail/ so a newcomer's machine needs no mail server.
 */
import { isAbsolute, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { defineConfig, transports } from '@adonisjs/mail'
import { EmlTransport } from '#core/mail/eml_transport'

const dataDir = env.get('DATA_DIR') || 'tmp'
const smtpHost = env.get('SMTP_HOST')
const user = env.get('SMTP_USER')

const mailConfig = defineConfig({
  default: smtpHost ? 'smtp' : 'eml',
  from: env.get('MAIL_FROM') ?? 'API de publicaciones <no-responder@localhost>',
  mailers: {
    smtp: transports.smtp({
      host: smtpHost ?? '127.0.0.1',
      port: env.get('SMTP_PORT') ?? 587,
      // A stalled server must not hold a mail worker for nodemailer's default 10 minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...(user
        ? { auth: { type: 'login' as const, user, pass: env.get('SMTP_PASSWORD') ?? '' } }
        : {}),
    }),
    eml: () =>
      new EmlTransport(join(isAbsolute(dataDir) ? dataDir : app.makePath(dataDir), 'mail')),
  },
})

export default mailConfig

declare module '@adonisjs/mail/types' {
  export interface MailersList extends InferMailers<typeof mailConfig> {}
}
