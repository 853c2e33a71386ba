/*
 * Registration link tokens. The token is HMAC-SHA256(APP_KEY, nonce) with a
 * random 256-bit nonce: the database holds the nonce and the token's SHA-256
 * (for lookup), so neither a database dump nor the job queue reveals a usable
 * link, yet reminders can repeat the very link of the first mail.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { appKey } from '#config/app'
import { settings } from '#core/settings'

export function newNonce(): string {
  return randomBytes(32).toString('hex')
}

export function tokenFor(nonce: string): string {
  return createHmac('sha256', appKey.release()).update(`invitation:${nonce}`).digest('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export function registrationUrl(nonce: string): string {
  return `${settings.publicUrl}/registro/${tokenFor(nonce)}`
}
