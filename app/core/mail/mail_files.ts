/*
 * The `.eml` files the mail transport writes without SMTP (DATA_DIR/mail/,
 * app/core/mail/eml_transport.ts): a buyer's data suppressed
 * (docs/design.md §16) deletes the files of the deliveries that mailed it,
 * found by their Message-ID (`mailMessageId`, the same on every try).
 */
import { readdir, readFile, unlink } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'

/** Where the eml transport writes (config/mail.ts computes the same). */
export function mailDirectory() {
  const dataDir = env.get('DATA_DIR') || 'tmp'
  return join(isAbsolute(dataDir) ? dataDir : app.makePath(dataDir), 'mail')
}

/** The Message-ID header of a rendered message (header section only). */
export function messageIdOf(raw: string): string | null {
  const end = raw.search(/\r?\n\r?\n/)
  const headers = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ')
  const match = /^message-id:\s*(<[^>\r\n]+>)/im.exec(headers)
  return match ? match[1] : null
}

export class MailFiles {
  constructor(private directory: string = mailDirectory()) {}

  /** Deletes the mail files whose Message-ID is one of `messageIds`; how many. */
  async forget(messageIds: Iterable<string>): Promise<number> {
    const wanted = new Set(messageIds)
    if (!wanted.size) return 0
    let names: string[]
    try {
      names = await readdir(this.directory)
    } catch {
      return 0 // no directory: nothing was ever written (SMTP in use)
    }
    let deleted = 0
    for (const name of names) {
      if (!name.endsWith('.eml')) continue
      const file = join(this.directory, name)
      const raw = await readFile(file, 'utf8').catch(() => null)
      const id = raw === null ? null : messageIdOf(raw)
      if (id !== null && wanted.has(id)) {
        await unlink(file).catch(() => {})
        deleted++
      }
    }
    return deleted
  }
}

export default MailFiles
