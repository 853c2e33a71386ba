/*
 * A worker killed with SIGKILL in the middle of a delivery loses nothing, on
 * any channel (and a photo download in flight is taken up again too): its jobs stop heartbeating, pg-boss fails them (heartbeat 10 s,
 * supervisor every 5 s) and runs them again 2–4 s later under the same job id,
 * which takes over its own claim; the restarted worker delivers every channel
 * again with the same webhook-id / Message-ID. The bar is 60 s after
 * the restart; the figure measured is printed.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ChildProcess } from 'node:child_process'
import JobRunner from '#core/jobs/runner'
import { startReceiver, type ReceivedRequest } from '#tests/helpers/receiver'
import { startSmtpSink } from '#tests/helpers/smtp_sink'
import { uniqueEmail } from '#tests/helpers/agencies'
import { carPhoto } from '#tests/helpers/car_photos'
import { startWorkerProcess } from '#tests/helpers/worker_process'
import { listingBody } from '#tests/helpers/listings'
import {
  LEAD_QUEUES,
  configureNotifications,
  dealerWorld,
  deliveriesOf,
  postInquiry,
  sidOf,
  startLeadWorkers,
  until,
} from '#tests/helpers/leads'

const worker = () => startWorkerProcess([...LEAD_QUEUES, 'photos.fetch'])

/** The first request to a path gets no answer before the worker dies; later ones are answered at once. */
function slowFirst(
  seen: Set<string>,
  answer: { headers?: Record<string, string>; body?: Buffer } = {}
) {
  return (request: ReceivedRequest) => {
    if (seen.has(request.path)) return { status: 200, ...answer }
    seen.add(request.path)
    return { status: 200, ...answer, delayMs: 30_000 }
  }
}

test.group('Lead deliveries: a worker killed mid-delivery', () => {
  test('SIGKILL while every channel and a photo download are mid-send; a restarted worker delivers all within 60 s, same ids', async ({
    client,
    assert,
  }) => {
    const runner = await app.container.make(JobRunner)
    await runner.stop() // only the child workers work the queues in this test
    const receiver = await startReceiver()
    const sink = await startSmtpSink()
    const children: ChildProcess[] = []
    try {
      const world = await dealerWorld()
      const adfMail = uniqueEmail('crm')
      const bcc = uniqueEmail('ventas')
      const config = {
        PublicacionConsultadaWebHook: { Callback: receiver.url('/webhook'), Activo: true },
        PublicacionConsultadaAdfHook: { Callback: receiver.url('/adf'), Activo: true },
        PublicacionConsultadaAdfMail: { Email: adfMail, Activo: true },
        PublicacionConsultadaHtmlMail: { EmailsCCO: bcc, Activo: true },
      }
      await configureNotifications(client, world, config)
      const seen = new Set<string>()
      receiver.route('/webhook', slowFirst(seen))
      receiver.route('/adf', slowFirst(seen))
      receiver.route(
        '/photo.jpg',
        slowFirst(seen, { headers: { 'content-type': 'image/jpeg' }, body: await carPhoto() })
      )
      // The SMTP sink keeps each mail but does not accept it before the worker dies.
      sink.answerDelayMs = 30_000

      children.push(worker())
      const created = await postInquiry(client, world)
      const sid = sidOf(created.header('location')!)
      const withPhoto = listingBody({ Fotos: [receiver.url('/photo.jpg')] })
      ;(
        await client
          .post(`/v3/publicaciones/${world.adminMail}`)
          .bearerToken(world.token)
          .json(withPhoto)
      ).assertStatus(201)
      const photoState = async () =>
        (
          await db
            .from('listing_photos')
            .where('source_url', receiver.url('/photo.jpg'))
            .select('state')
            .firstOrFail()
        ).state as string
      const mailsTo = (address: string) =>
        sink.messages.filter((mail) => mail.envelope.to.includes(address))
      const midSend = await until(
        async () => ({
          hooks: receiver.requests.length,
          adf: mailsTo(adfMail).length,
          html: mailsTo(bcc).length,
        }),
        (counts) => counts.hooks >= 3 && counts.adf >= 1 && counts.html >= 1,
        60_000
      )
      assert.deepEqual(
        midSend,
        { hooks: 3, adf: 1, html: 1 },
        'every channel and the photo are mid-send when the worker is killed'
      )
      children[0].kill('SIGKILL')
      sink.answerDelayMs = 0

      const restartedAt = Date.now()
      children.push(worker())
      const settled = await until(
        () => deliveriesOf(sid),
        (list) => list.length === 4 && list.every((delivery) => delivery.status === 'delivered'),
        60_000
      )
      const recoverySeconds = (Date.now() - restartedAt) / 1000
      const photo = await until(
        photoState,
        (state) => state !== 'pending',
        60_000 - recoverySeconds * 1000
      )
      const photoSeconds = (Date.now() - restartedAt) / 1000
      console.log(
        `  worker SIGKILLed mid-delivery: all 4 channels delivered ${recoverySeconds.toFixed(1)} s after the restart, the photo ready after ${photoSeconds.toFixed(1)} s`
      )
      assert.equal(photo, 'ready')
      assert.deepEqual(
        settled.map((delivery) => delivery.status),
        ['delivered', 'delivered', 'delivered', 'delivered']
      )
      assert.isAtMost(recoverySeconds, 60)
      // The try the dead worker never recorded is logged as interrupted, then the delivered one.
      for (const delivery of settled) {
        assert.deepEqual(
          delivery.attempts.map((attempt) => attempt.statusCode),
          [null, 200],
          `${delivery.channel}: ${JSON.stringify(delivery.attempts.map((a) => a.error))}`
        )
      }

      // Each hook was sent twice with the same webhook-id and body.
      assert.lengthOf(
        receiver.requests.filter((request) => request.path === '/photo.jpg'),
        2
      )
      for (const path of ['/webhook', '/adf']) {
        const sent = receiver.requests.filter((request) => request.path === path)
        assert.lengthOf(sent, 2, path)
        assert.equal(sent[1].headers['webhook-id'], sent[0].headers['webhook-id'], path)
        assert.equal(sent[1].body, sent[0].body, path)
      }
      const webhook = settled.find((delivery) => delivery.channel === 'webhook')!
      assert.equal(
        receiver.requests.find((request) => request.path === '/webhook')!.headers['webhook-id'],
        webhook.messageId
      )
      // Each mail was sent twice with the same Message-ID, the delivery's own.
      for (const [address, channel] of [
        [adfMail, 'adfMail'],
        [bcc, 'htmlMail'],
      ]) {
        const delivery = settled.find((entry) => entry.channel === channel)!
        const ids = mailsTo(address).map((mail) => mail.parsed.messageId)
        assert.lengthOf(ids, 2, channel)
        assert.equal(ids[1], ids[0], channel)
        assert.match(ids[0]!, new RegExp(`^<delivery-${delivery.id}@`), channel)
      }
    } finally {
      for (const child of children) child.kill('SIGKILL')
      await receiver.close()
      await sink.close()
      await startLeadWorkers()
    }
  }).timeout(150_000)
})
