/*
 * The resend window under concurrency (docs/design.md §13): `leads.expire-resend`
 * flips `resend_open` while resends arrive. The answer rests on the
 * immutable `resend_closes_at`, so the flag's cron can race a resend without
 * changing what it answers.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import {
  configureNotifications,
  dealerWorld,
  postInquiry,
  sidOf,
  startLeadWorkers,
} from '#tests/helpers/leads'

test.group('Leads: resend window vs leads.expire-resend', (group) => {
  let receiver: Receiver
  group.setup(async () => {
    await startLeadWorkers()
    receiver = await startReceiver()
    return () => receiver.close()
  })

  test('expiry running during 10 resends: open windows 202, run-out windows 400, flags right', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const config = {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/hook'), Activo: true },
    }
    await configureNotifications(client, world, config)
    const sids: string[] = []
    for (let index = 0; index < 10; index++) {
      const created = await postInquiry(client, world)
      sids.push(sidOf(created.header('location')!))
    }
    // Half of them ran out a moment ago; the cron has not closed them yet.
    const [runOut, open] = [sids.slice(0, 5), sids.slice(5)]
    await db
      .from('inquiries')
      .whereIn('sid', runOut)
      .update({ resend_closes_at: db.raw(`now() - interval '1 millisecond'`) })

    const runner = await app.container.make(JobRunner)
    const [responses] = await Promise.all([
      Promise.all(
        sids.map((sid) =>
          client
            .post(`/v3/consultas/${world.adminMail}/${sid}/resendwebhook`)
            .bearerToken(world.token)
        )
      ),
      runner.runNow('leads.expire-resend'),
      runner.runNow('leads.expire-resend'),
    ])
    assert.deepEqual(
      responses.map((response) => response.status()),
      [...Array(5).fill(400), ...Array(5).fill(202)]
    )
    const flags = await db.from('inquiries').whereIn('sid', sids).select('sid', 'resend_open')
    const flag = Object.fromEntries(flags.map((row) => [row.sid, row.resend_open]))
    assert.deepEqual(
      runOut.map((sid) => flag[sid]),
      Array(5).fill(false)
    )
    assert.deepEqual(
      open.map((sid) => flag[sid]),
      Array(5).fill(true)
    )
  })
})
