/*
 * One time zone (issue 28 item 5, docs/design.md §19): whatever the process's
 * TZ — unset (the README's default), UTC or a zone with daylight saving — the
 * formatters the modules use (luxon's toISO for invitations and events,
 * wireTime for inquiries and listings, Date's local time) write the same
 * offset, the configured zone's. Each case is a fresh process, as `npm start` is.
 */
import { test } from '@japa/runner'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import { settings } from '#core/settings'
import { createCaller } from '#tests/helpers/apps'
import { seedCatalog } from '#tests/helpers/catalog'
import { dealerWorld, postInquiry } from '#tests/helpers/leads'
import { invitationBody } from '../agencies/support.js'

type Probe = {
  timeZone: string
  setting: string
  processZone: string
  written: { luxon: string; luxonNow: string; wire: string; dateOffsetMinutes: number }[]
}

/** Runs the probe with `tz` as TZ (undefined: not in the environment). */
function probe(tz: string | undefined, instants: number[]): Probe {
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.TZ
  if (tz !== undefined) env.TZ = tz
  const result = spawnSync(
    process.execPath,
    [
      '--import=@poppinss/ts-exec',
      join('tests', 'functional', 'core', 'time_zone_probe.ts'),
      ...instants.map(String),
    ],
    { cwd: app.makePath(), env, encoding: 'utf8', timeout: 60_000 }
  )
  if (result.status !== 0) throw new Error(`probe (TZ=${tz}) failed: ${result.stderr}`)
  return JSON.parse(result.stdout.trim().split('\n').pop()!)
}

const offsetOf = (iso: string) => (iso.endsWith('Z') ? '+00:00' : iso.slice(-6))
const minutes = (offset: string) =>
  (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)))

// 2026-03-29 01:00Z Madrid moves to summer time; 2026-10-25 01:00Z back (both sides of each).
const MADRID_EDGES = [
  [Date.UTC(2026, 2, 29, 0, 59, 59), '2026-03-29T01:59:59+01:00'],
  [Date.UTC(2026, 2, 29, 1, 0, 0), '2026-03-29T03:00:00+02:00'],
  [Date.UTC(2026, 9, 25, 0, 59, 59), '2026-10-25T02:59:59+02:00'],
  [Date.UTC(2026, 9, 25, 1, 0, 0), '2026-10-25T02:00:00+01:00'],
] as const

test.group('One time zone per process', () => {
  test('TZ unset: America/Argentina/Buenos_Aires for luxon, wireTime and Date alike', ({
    assert,
  }) => {
    const at = Date.UTC(2026, 6, 1, 12)
    const result = probe(undefined, [at])
    assert.equal(result.setting, 'America/Argentina/Buenos_Aires')
    // ICU names the zone by its canonical alias.
    assert.match(result.processZone, /^America\/(Argentina\/)?Buenos_Aires$/)
    const [written] = result.written
    assert.equal(written.wire, '2026-07-01T09:00:00-03:00')
    assert.equal(written.luxon, written.wire)
    assert.equal(written.luxonNow, '-03:00')
    assert.equal(written.dateOffsetMinutes, -180)
  }).timeout(90_000)

  test('TZ=UTC: every formatter writes UTC', ({ assert }) => {
    const result = probe('UTC', [Date.UTC(2026, 6, 1, 12)])
    assert.equal(result.setting, 'UTC')
    const [written] = result.written
    assert.equal(written.wire, '2026-07-01T12:00:00Z')
    assert.equal(written.luxon, written.wire)
    assert.equal(written.dateOffsetMinutes, 0)
  }).timeout(90_000)

  test('TZ=Europe/Madrid: the same offset from every formatter on both sides of both DST edges', ({
    assert,
  }) => {
    const result = probe(
      'Europe/Madrid',
      MADRID_EDGES.map(([ms]) => ms)
    )
    assert.equal(result.setting, 'Europe/Madrid')
    result.written.forEach((written, index) => {
      const expected = MADRID_EDGES[index][1]
      assert.equal(written.wire, expected)
      assert.equal(written.luxon, expected)
      assert.equal(written.luxonNow, offsetOf(expected))
      assert.equal(written.dateOffsetMinutes, minutes(offsetOf(expected)))
    })
  }).timeout(90_000)

  test('an invalid TZ stops the process at boot with a message naming it', ({ assert }) => {
    assert.throws(() => probe('Mars/Olympus_Mons', [0]), /Mars\/Olympus_Mons/)
  }).timeout(90_000)
})

test.group('One time zone on the wire (this process)', () => {
  test("an invitation's Enviada, an inquiry's Momento and its event's Momento carry the configured offset", async ({
    client,
    assert,
  }) => {
    const expected = DateTime.now().setZone(settings.timezone).toFormat('ZZ')
    const sameOffset = (iso: string, what: string) =>
      assert.equal(offsetOf(iso).replace('Z', '+00:00'), expected, `${what}: ${iso}`)

    await seedCatalog()
    const { token: inviter } = await createCaller('Time zone inviter')
    const invited = await client.post('/v3/agencias').bearerToken(inviter).json(invitationBody())
    invited.assertStatus(202)
    sameOffset(invited.body().Enviada, 'Enviada')
    sameOffset(invited.body().Vence, 'Vence')

    const world = await dealerWorld()
    const inquiry = await postInquiry(client, world)
    sameOffset(inquiry.body().Momento, 'inquiry Momento')

    const events = await client.get('/v3/eventos').bearerToken(world.token)
    events.assertStatus(200)
    const received = events.body()._entries.filter((entry: any) => entry.Topico === 'consultas')
    assert.isAbove(received.length, 0, JSON.stringify(events.body()._entries))
    for (const entry of received) {
      sameOffset(entry.Momento, 'event Momento')
      if (entry.Datos?.Momento) sameOffset(entry.Datos.Momento, 'event Datos.Momento')
    }
  })
})
