/*
 * Run by time_zone.spec.ts in a child process with a chosen TZ (or none): loads
 * the environment as every process does, then prints how each formatter the
 * modules use writes the same instants — luxon's toISO (invitations, events),
 * wireTime (inquiries, listings) and Date's local time (mails, logs).
 */
const { timeZone } = await import('#start/env')
const { DateTime } = await import('luxon')
const { wireTime } = await import('#core/wire_time')
const { settings } = await import('#core/settings')

const instants = process.argv.slice(2).map(Number)
console.log(
  JSON.stringify({
    timeZone,
    setting: settings.timezone,
    processZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    written: instants.map((ms) => ({
      luxon: DateTime.fromMillis(ms).toISO({ suppressMilliseconds: true }),
      luxonNow: DateTime.fromJSDate(new Date(ms)).toFormat('ZZ'),
      wire: wireTime(new Date(ms)),
      dateOffsetMinutes: -new Date(ms).getTimezoneOffset(),
    })),
  })
)
