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
  nodeEnv: env.get('NODE_ENV') ?? 'development',
  /** `npm start` on an empty database makes demo data (never in production or tests): DEMO_DATA=false skips it. */
  demoData: env.get('DEMO_DATA') ?? true,
  resendWindowDays: env.get('RESEND_WINDOW_DAYS') ?? 7,
  /** Default retention of buyers' data in days (docs/design.md §16); an agency may set 30..3650. */
  buyerDataRetentionDays: env.get('BUYER_DATA_RETENTION_DAYS') ?? 730,
  invitationTtlDays: env.get('INVITATION_TTL_DAYS') ?? 14,
  rateLimitPerMinute: env.get('RATE_LIMIT_PER_MINUTE') ?? 1200,
  /** Failed authentications (401) per client address and minute before 429. */
  authFailuresPerMinute: env.get('AUTH_FAILURES_PER_MINUTE') ?? 30,
  /** The IANA zone of every instant written (TZ, default America/Argentina/Buenos_Aires); also the process zone. */
  timezone: timeZone,
  acceptedCurrencies: ['ARS', 'USD'],
  /** Seconds before each retry of a failed delivery (docs/design.md §8); ±20 % jitter is added. Tests shorten it. */
  deliveryRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 86400] as number[],
  /** A request body idle this long while it is read is answered 408 and its connection closed. Tests shorten it. */
  bodyIdleTimeoutMs: 15_000,
  /**
   * The rest of a body answered before it was read (413, 401, 404, 415, a malformed URL) is read and
   * discarded up to `bytes`, while it keeps coming (`idleMs`) and for at most `ms`; past that the
   * connection is half-closed, read for `lingerMs` more, then cut (app/core/http/body_drain.ts). Tests shorten it.
   */
  bodyDrain: { bytes: 64 * 1024 * 1024, idleMs: 5_000, ms: 60_000, lingerMs: 2_000 },
  /**
   * How long a stock sync's worker holds its agency's turn without renewing it (it renews once per
   * batch of rows): a killed worker's sync is taken up again by another worker once it lapses. Tests shorten it.
   */
  syncLeaseSeconds: env.get('SYNC_LEASE_SECONDS') ?? 60,
  /** Longest `Retry-After` (seconds) a receiver can ask for. */
  deliveryRetryAfterMax: 86400,
}
