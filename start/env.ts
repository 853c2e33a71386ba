/*
 * Environment variables, validated at boot. Every variable is optional:
 * the defaults serve a newcomer running `npm start` on one machine.
 */
import { Env } from '@adonisjs/core/env'
import { IANAZone, Settings } from 'luxon'

/** The zone of every instant the service writes when `TZ` is unset (README). */
export const DEFAULT_TIME_ZONE = 'America/Argentina/Buenos_Aires'

const env = await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum.optional(['development', 'production', 'test'] as const),
  HOST: Env.schema.string.optional({ format: 'host' }),
  PORT: Env.schema.number.optional(),
  PUBLIC_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  APP_KEY: Env.schema.string.optional(),
  LOG_LEVEL: Env.schema.string.optional(),
  TZ: Env.schema.string.optional(),
  DATABASE_URL: Env.schema.string.optional(),
  JOBS_DATABASE_URL: Env.schema.string.optional(),
  DATABASE_POOLER: Env.schema.enum.optional(['session', 'transaction'] as const),
  DATA_DIR: Env.schema.string.optional(),
  SMTP_HOST: Env.schema.string.optional(),
  SMTP_PORT: Env.schema.number.optional(),
  SMTP_USER: Env.schema.string.optional(),
  SMTP_PASSWORD: Env.schema.string.optional(),
  MAIL_FROM: Env.schema.string.optional(),
  DRIVE_DISK: Env.schema.enum.optional(['fs', 's3'] as const),
  S3_BUCKET: Env.schema.string.optional(),
  S3_REGION: Env.schema.string.optional(),
  S3_ENDPOINT: Env.schema.string.optional(),
  S3_ACCESS_KEY_ID: Env.schema.string.optional(),
  S3_SECRET_ACCESS_KEY: Env.schema.string.optional(),
  S3_FORCE_PATH_STYLE: Env.schema.boolean.optional(),
  OUTBOUND_ALLOW_PRIVATE: Env.schema.boolean.optional(),
  DEMO_DATA: Env.schema.boolean.optional(),
  RESEND_WINDOW_DAYS: Env.schema.number.optional(),
  // Days an inquiry's buyer data is kept before the daily retention job suppresses it (docs/design.md §16).
  BUYER_DATA_RETENTION_DAYS: Env.schema.number.optional(),
  INVITATION_TTL_DAYS: Env.schema.number.optional(),
  RATE_LIMIT_PER_MINUTE: Env.schema.number.optional(),
  AUTH_FAILURES_PER_MINUTE: Env.schema.number.optional(),
  SYNC_LEASE_SECONDS: Env.schema.number.optional(),
  LIMITER_STORE: Env.schema.enum.optional(['database', 'memory'] as const),
  TRUST_PROXY: Env.schema.string.optional(),
  // GET /metrics on its own port (off when unset), or on PORT with this bearer token (docs/design.md §14).
  METRICS_PORT: Env.schema.number.optional(),
  METRICS_TOKEN: Env.schema.string.optional(),
})

/*
 * One zone per process (docs/design.md §19): the configured TZ, or the default,
 * becomes the process zone before the app reads the clock, so luxon's
 * `toISO()`/`toFormat()`, `Date`'s local methods and `wireTime` all write the
 * same offset. Set here rather than in bin/*: this is the first code that sees
 * a TZ given in a .env file as well as in the environment (Node re-reads
 * process.env.TZ when it is assigned).
 */
export const timeZone = env.get('TZ') || DEFAULT_TIME_ZONE
if (!IANAZone.isValidZone(timeZone)) {
  throw new Error(`TZ "${timeZone}" is not an IANA time zone (e.g. ${DEFAULT_TIME_ZONE})`)
}
process.env.TZ = timeZone
// luxon keeps its system zone, which now is this one: naming it (Settings.defaultZone) would make every
// DateTime of a row compute its offset through Intl, 7.1 µs instead of 0.8 per DateTime.fromJSDate.
// UTC alone is named: a fixed zone (no Intl), which writes `Z` as wireTime does.
if (timeZone.toLowerCase() === 'utc') Settings.defaultZone = 'utc'

export default env
