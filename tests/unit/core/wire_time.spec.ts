import { test } from '@japa/runner'
import fc from 'fast-check'
import { DateTime } from 'luxon'
import { settings } from '#core/settings'
import { wireTime } from '#core/wire_time'

const luxon = (ms: number) =>
  DateTime.fromMillis(ms).setZone(settings.timezone).toISO({ suppressMilliseconds: true })!

/** Zones with and without daylight saving, odd offsets, a 30-minute shift, and UTC (written `Z`). */
const ZONES = [
  'America/Argentina/Buenos_Aires',
  'Europe/London',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'UTC',
]

/** Every instant where the zone's offset changes between 2000 and 2040, found by bisection. */
function transitions(zone: string) {
  const found: number[] = []
  const offset = (ms: number) => DateTime.fromMillis(ms, { zone }).offset
  const day = 86_400_000
  for (let at = Date.UTC(2000, 0, 1); at < Date.UTC(2040, 0, 1); at += day) {
    if (offset(at) === offset(at + day)) continue
    let [low, high] = [at, at + day]
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (offset(middle) === offset(low)) low = middle
      else high = middle
    }
    found.push(high)
  }
  return found
}

test.group('wireTime', (group) => {
  const zone = settings.timezone
  group.each.teardown(() => {
    settings.timezone = zone
  })

  test('writes what luxon writes for any instant, in {$self}')
    .with(ZONES)
    .run(({ assert }, name) => {
      settings.timezone = name
      fc.assert(
        fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) }), (ms) => {
          assert.equal(wireTime(new Date(ms)), luxon(ms))
          assert.equal(wireTime(DateTime.fromMillis(ms)), luxon(ms))
        }),
        { seed: 20261124, numRuns: 3000 }
      )
    })

  test('is exact on both sides of every change of offset, in {$self}')
    .with(ZONES.filter((name) => name !== 'UTC' && name !== 'Asia/Kathmandu'))
    .run(({ assert }, name) => {
      settings.timezone = name
      const changes = transitions(name)
      if (name !== 'America/Argentina/Buenos_Aires') assert.isAbove(changes.length, 10)
      for (const at of changes)
        for (const ms of [at - 60_001, at - 1, at, at + 1, at + 60_000])
          assert.equal(wireTime(new Date(ms)), luxon(ms), new Date(ms).toISOString())
    })

  test('milliseconds appear only when not zero', ({ assert }) => {
    settings.timezone = 'America/Argentina/Buenos_Aires'
    assert.equal(wireTime(new Date('2026-11-24T12:00:00.000Z')), '2026-11-24T09:00:00-03:00')
    assert.equal(wireTime(new Date('2026-11-24T12:00:00.007Z')), '2026-11-24T09:00:00.007-03:00')
    settings.timezone = 'UTC'
    assert.equal(wireTime(new Date('2026-11-24T12:00:00.000Z')), '2026-11-24T12:00:00Z')
  })
})
