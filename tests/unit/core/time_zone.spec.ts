import { test } from '@japa/runner'
import { settings } from '#core/settings'
import { readableTime, wireTime } from '#core/wire_time'

test.group('wireTime at the DST edges of Europe/Madrid', (group) => {
  const configured = settings.timezone
  group.each.setup(() => {
    settings.timezone = 'Europe/Madrid'
    return () => {
      settings.timezone = configured
    }
  })

  test('spring forward (2026-03-29 01:00Z): +01:00 up to the last millisecond, +02:00 from it', ({
    assert,
  }) => {
    assert.equal(
      wireTime(new Date(Date.UTC(2026, 2, 29, 0, 59, 59, 999))),
      '2026-03-29T01:59:59.999+01:00'
    )
    assert.equal(wireTime(new Date(Date.UTC(2026, 2, 29, 1))), '2026-03-29T03:00:00+02:00')
  })

  test('fall back (2026-10-25 01:00Z): +02:00 up to the last millisecond, +01:00 from it', ({
    assert,
  }) => {
    assert.equal(
      wireTime(new Date(Date.UTC(2026, 9, 25, 0, 59, 59, 999))),
      '2026-10-25T02:59:59.999+02:00'
    )
    assert.equal(wireTime(new Date(Date.UTC(2026, 9, 25, 1))), '2026-10-25T02:00:00+01:00')
  })

  test('readableTime (mails, pages) names the zone and its offset on each side of an edge', ({
    assert,
  }) => {
    assert.equal(
      readableTime(new Date(Date.UTC(2026, 9, 25, 0, 59))),
      '25 de octubre de 2026, 02:59 (UTC+2, Europe/Madrid)'
    )
    assert.equal(
      readableTime('2026-10-25T01:00:00Z'),
      '25 de octubre de 2026, 02:00 (UTC+1, Europe/Madrid)'
    )
  })
})
