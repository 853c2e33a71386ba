/*
 * A real SMTP listener on 127.0.0.1:SMTP_PORT for mail tests: every message
 * is kept with its envelope (MAIL FROM, RCPT TO — where BCC recipients show)
 * and parsed with postal-mime.
 *
 *   const sink = await startSmtpSink()
 *   const [message] = await sink.waitFor((m) => m.envelope.to.includes('x@example.com'))
 *   message.parsed.subject; message.parsed.html; message.parsed.text
 *   sink.answerDelayMs = 20_000   // keep messages, answer 250 that much later (a sender killed mid-send)
 *   await sink.close()
 */
import { SMTPServer } from 'smtp-server'
import PostalMime, { type Email } from 'postal-mime'
import env from '#start/env'

export type SunkMail = { envelope: { from: string; to: string[] }; raw: string; parsed: Email }

export type SmtpSink = {
  messages: SunkMail[]
  /** Delay before the server accepts each message it has received (default 0). */
  answerDelayMs: number
  waitFor(match: (mail: SunkMail) => boolean, timeoutMs?: number): Promise<SunkMail[]>
  close(): Promise<void>
}

export async function startSmtpSink(port = env.get('SMTP_PORT') ?? 2526): Promise<SmtpSink> {
  const messages: SunkMail[] = []
  let wake: Array<() => void> = []
  const sink = { answerDelayMs: 0 }
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const parsed = await PostalMime.parse(raw)
        messages.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          },
          raw,
          parsed,
        })
        for (const fn of wake) fn()
        if (sink.answerDelayMs > 0) setTimeout(() => callback(), sink.answerDelayMs)
        else callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return Object.assign(sink, {
    messages,
    waitFor(match: (mail: SunkMail) => boolean, timeoutMs = 10_000): Promise<SunkMail[]> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.filter(match)
          if (found.length === 0) return false
          clearTimeout(timer)
          wake = wake.filter((fn) => fn !== check)
          resolve(found)
          return true
        }
        const timer = setTimeout(() => {
          wake = wake.filter((fn) => fn !== check)
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`))
        }, timeoutMs)
        if (!check()) wake.push(check)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}
