/*
 * The mail transport for machines without an SMTP server (no SMTP_HOST):
 * nodemailer renders the complete RFC 5322 message and it is written as an
 * `.eml` file under DATA_DIR/mail/, readable by any mail client.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { SMTPTransport } from '@adonisjs/mail/transports/smtp'
import type { MailTransportContract, NodeMailerMessage } from '@adonisjs/mail/types'

export class EmlTransport implements MailTransportContract {
  // nodemailer's stream transport through the SMTP wrapper: same message rendering, no network.
  #render = new SMTPTransport({ streamTransport: true, buffer: true, newline: 'unix' } as any)

  constructor(private directory: string) {}

  async send(message: NodeMailerMessage) {
    const response = await this.#render.send(message)
    const raw = (response.original as unknown as { message: Buffer }).message
    await mkdir(this.directory, { recursive: true })
    const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`
    await writeFile(join(this.directory, file), raw)
    return response
  }

  async close() {
    await this.#render.close()
  }
}
