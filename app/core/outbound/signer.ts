/*
 * Standard Webhooks signing (https://www.standardwebhooks.com/):
 *   webhook-id         stable message id (the same on every retry and resend)
 *   webhook-timestamp  Unix seconds of this attempt
 *   webhook-signature  `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 *
 * Key: a `Secret` written as `whsec_<base64>` (the Standard Webhooks format)
 * signs with the decoded bytes, so `new Webhook(secret)` verifies it as is.
 * Any other Secret (the spec's free string) signs with its UTF-8 bytes; the
 * receiver verifies with
 *   new Webhook(new TextEncoder().encode(secret), { format: 'raw' }).verify(rawBody, headers)
 * (for ASCII secrets `new Webhook(secret, { format: 'raw' })` is the same).
 *
 * Secrets rest encrypted (`sealSecret` / `openSecret`, the app's encryption
 * service with a purpose) and are never echoed by the API.
 */
import { createHmac, randomUUID } from 'node:crypto'
import encryption from '@adonisjs/core/services/encryption'

export type SignInput = {
  id: string
  /** Attempt time; defaults to now. */
  timestamp?: Date | number
  body: string | Buffer
  secret: string
}

export type SignedHeaders = {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

const STANDARD_SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/

/** The HMAC key of a Secret (see the header comment). */
export function signingKey(secret: string): Buffer {
  const standard = STANDARD_SECRET.exec(secret)
  if (standard) {
    const decoded = Buffer.from(standard[1], 'base64')
    if (decoded.length >= 16) return decoded
  }
  return Buffer.from(secret, 'utf8')
}

/** Standard Webhooks headers for one attempt of a message. */
export function signWebhook(input: SignInput): SignedHeaders {
  const timestamp =
    input.timestamp === undefined
      ? Math.floor(Date.now() / 1000)
      : input.timestamp instanceof Date
        ? Math.floor(input.timestamp.getTime() / 1000)
        : Math.floor(input.timestamp)
  const body = Buffer.isBuffer(input.body) ? input.body.toString('utf8') : input.body
  const signature = createHmac('sha256', signingKey(input.secret))
    .update(`${input.id}.${timestamp}.${body}`)
    .digest('base64')
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  }
}

/** A new message id in the Standard Webhooks style (`msg_…`). */
export function newMessageId() {
  return `msg_${randomUUID().replaceAll('-', '')}`
}

const PURPOSE = 'webhook-secret'

/** Encrypts a Secret for storage. */
export function sealSecret(secret: string): string {
  return encryption.encrypt(secret, { purpose: PURPOSE })
}

/** Decrypts a stored Secret; null when absent or unreadable (e.g. APP_KEY rotated away). */
export function openSecret(sealed: string | null | undefined): string | null {
  if (!sealed) return null
  return encryption.decrypt<string>(sealed, PURPOSE) ?? null
}
