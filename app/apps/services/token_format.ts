/*
 * The bearer token's format, unchanged since the first tokens were issued
 * through Adonis' access-tokens provider (so those keep working):
 * `dla_<base64url id>.<base64url secret>`, the secret 40 random characters
 * and a CRC32, stored as its SHA-256 (never in clear). Pure functions: no
 * database, no state.
 */
import { createHash } from 'node:crypto'
import { base64, safeEqual, Secret } from '@adonisjs/core/helpers'
import { AccessToken } from '@adonisjs/auth/access_tokens'

export const TOKEN_PREFIX = 'dla_'
/** `app_tokens.type` of app tokens. */
export const TOKEN_TYPE = 'app_token'
const SECRET_LENGTH = 40
/** `app_tokens.id` is an integer column. */
const MAX_TOKEN_ID = 2_147_483_647

/** A fresh secret and the hash stored for it. */
export function newSecret(): { secret: Secret<string>; hash: string } {
  return AccessToken.seed(SECRET_LENGTH)
}

/** The value handed to the app, once. */
export function tokenValue(id: number, secret: Secret<string>): string {
  return `${TOKEN_PREFIX}${base64.urlEncode(String(id))}.${base64.urlEncode(secret.release())}`
}

/** Whether `secret` is the one `hash` was made of (constant time). */
export function secretMatches(hash: string, secret: Secret<string>): boolean {
  return safeEqual(hash, createHash('sha256').update(secret.release()).digest('hex'))
}

/**
 * `<prefix><base64url id>.<base64url secret>` → its parts, or null: anything
 * else, an id that is not a positive integer of the column's range, or
 * base64url that does not round-trip is refused before any query.
 */
export function decodeToken(value: string): { id: number; secret: Secret<string> } | null {
  if (!value.startsWith(TOKEN_PREFIX)) return null
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(value.slice(TOKEN_PREFIX.length))
  if (!match) return null
  const id = base64.urlDecode(match[1])
  const secret = base64.urlDecode(match[2])
  if (id === null || !secret || !/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > MAX_TOKEN_ID)
    return null
  return { id: Number(id), secret: new Secret(secret) }
}

/** `30s`, `15m`, `12h`, `90d` → seconds, or null. */
export function durationSeconds(value: string): number | null {
  const match = /^([1-9][0-9]{0,5})([smhd])$/.exec(value)
  if (!match) return null
  return Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as 's' | 'm' | 'h' | 'd']
}
