/*
 * Typed, defaulted view of the environment, read once. Modules use this
 * rather than reading env variables themselves.
 */
import env, { timeZone } from '#start/env'

const port = env.get('PORT') ?? 3333

export const settings = {
  host: env.get('HOST') ?? '0.0.0.0',
  port,
  /** Absolute base of Location headers, mail links and photo URLs, without a trailing slash. */
  publicUrl: (env.get('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
  outboundAllowPrivate: env.get('OUTBOUND_ALLOW_PRIVATE') ?? false,
  resendWindowDays: env.get('RESEND_WINDOW_DAYS') ?? 7,
  invitationTtlDays: env.get('INVITATION_TTL_DAYS') ?? 14,
  rateLimitPerMinute: env.get('RATE_LIMIT_PER_MINUTE') ?? 1200,
  /** Failed authentications (401) per client address and minute before 429. */
  authFailuresPerMinute: env.get('AUTH_FAILURES_PER_MINUTE') ?? 30,
  /** The IANA zone of every instant written (TZ, default America/Argentina/Buenos_Aires); also the process zone. */
  timezone: timeZone,
  acceptedCurrencies: ['ARS', 'USD'],
  /** Seconds before each retry of a failed delivery (docs/design.md §8); ±20 % jitter is added. Tests shorten it. */
  deliveryRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 86400] as number[],
  /** Longest `Retry-After` (seconds) a receiver can ask for. */
  deliveryRetryAfterMax: 86400,
}
