import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import PostalMime from 'postal-mime'
import app from '@adonisjs/core/services/app'
import mail from '@adonisjs/mail/services/main'
import { Webhook } from 'standardwebhooks'
import Invitation from '#agencies/models/invitation'
import { createCaller } from '#tests/helpers/apps'
import { raw } from '#tests/helpers/http'
import {
  invitationBody,
  mailingGroup,
  mailsTo,
  pathOf,
  postInvitation,
  registrationLink,
} from './support.js'

const SECRET = 'poll-secret-0123456789abcdef'

test.group('Agencies / invitations.poll (cron): expiry, reminder, owed app events', (group) => {
  const world = mailingGroup(group, { receiver: true })

  async function invite(client: any, token: string) {
    const body = invitationBody()
    await postInvitation(client, token, body)
    const [message] = await mailsTo(world.sink, body.AdminMail)
    const invitation = await Invitation.findByOrFail('admin_email', body.AdminMail)
    return { body, link: registrationLink(message), invitation }
  }

  test('an overdue invitation expires: 410 on its URI and its link; a new POST invites again', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const { body, link, invitation } = await invite(client, token)
    await Invitation.query()
      .where('id', invitation.id)
      .update({
        sentAt: DateTime.now().minus({ days: 15 }).toSQL(),
        expiresAt: DateTime.now().minus({ minutes: 1 }).toSQL(),
      })

    await world.runner.runNow('invitations.poll')
    await invitation.refresh()
    assert.equal(invitation.state, 'expired')

    const status = await client.get(`/v3/agencias/${body.AdminMail}`).bearerToken(token)
    status.assertStatus(410)
    assert.match(status.header('content-type')!, /application\/problem\+json/)
    ;(await client.options(`/v3/agencias/${body.AdminMail}`).bearerToken(token)).assertStatus(410)
    const page = await raw(pathOf(link), { headers: { accept: 'text/html' } })
    assert.equal(page.status, 410)
    const form = await raw(pathOf(link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        AdminNombre: 'A',
        AdminApellido: 'B',
        Password: '0123456789',
      }).toString(),
    })
    assert.equal(form.status, 410)

    await postInvitation(client, token, body)
    const mails = await mailsTo(world.sink, body.AdminMail, 2)
    assert.notEqual(registrationLink(mails[1]), link)
    ;(await client.get(`/v3/agencias/${body.AdminMail}`).bearerToken(token)).assertStatus(202)
  })

  test('an invitation past its validity is refused at the link even before the job runs', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const { body, link, invitation } = await invite(client, token)
    await Invitation.query()
      .where('id', invitation.id)
      .update({ expiresAt: DateTime.now().minus({ seconds: 1 }).toSQL() })
    assert.equal((await raw(pathOf(link), { headers: { accept: 'text/html' } })).status, 410)
    ;(await client.get(`/v3/agencias/${body.AdminMail}`).bearerToken(token)).assertStatus(410)
  })

  test('one reminder at half-life, with the same link; none before it, none twice', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const early = await invite(client, token)
    const due = await invite(client, token)
    const days = (n: number) => DateTime.now().plus({ days: n }).toSQL()
    // Early: 6 of 14 days gone. Due: 8 of 14 days gone.
    await Invitation.query()
      .where('id', early.invitation.id)
      .update({ sentAt: days(-6), expiresAt: days(8) })
    await Invitation.query()
      .where('id', due.invitation.id)
      .update({ sentAt: days(-8), expiresAt: days(6) })

    await world.runner.runNow('invitations.poll')
    const mails = await mailsTo(world.sink, due.body.AdminMail, 2)
    assert.match(mails[1].parsed.subject ?? '', /^Recordatorio/)
    assert.equal(registrationLink(mails[1]), due.link)
    await due.invitation.refresh()
    assert.isNotNull(due.invitation.remindedAt)
    await early.invitation.refresh()
    assert.isNull(early.invitation.remindedAt)
    assert.equal(early.invitation.mailSequence, 1)

    const sequence = due.invitation.mailSequence
    await world.runner.runNow('invitations.poll')
    await due.invitation.refresh()
    assert.equal(due.invitation.mailSequence, sequence, 'a second run queues no second reminder')

    // The reminded link still registers.
    const done = await raw(pathOf(due.link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        AdminNombre: 'Ana',
        AdminApellido: 'Paz',
        Password: '0123456789',
      }).toString(),
    })
    assert.equal(done.status, 201)
  })

  test('an owed invitaciones event is queued by the job, once', async ({ client, assert }) => {
    const { token } = await createCaller()
    await client
      .put('/v3/appnotificaciones/invitaciones')
      .bearerToken(token)
      .json({ Callback: world.receiver.url('/owed'), Secret: SECRET })
      .then((response) => response.assertStatus(200))
    const { body, link, invitation } = await invite(client, token)
    const done = await raw(pathOf(link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        AdminNombre: 'Ana',
        AdminApellido: 'Paz',
        Password: '0123456789',
      }).toString(),
    })
    assert.equal(done.status, 201)
    await world.receiver.waitFor(1)
    await invitation.refresh()
    assert.isNotNull(invitation.eventQueuedAt)

    // As if the event had been missed (e.g. registered before the app module could queue it).
    await Invitation.query().where('id', invitation.id).update({ eventQueuedAt: null })
    await world.runner.runNow('invitations.poll')
    const [, owed] = await world.receiver.waitFor(2)
    const payload = new Webhook(SECRET, { format: 'raw' }).verify(
      owed.rawBody.toString(),
      owed.headers as Record<string, string>
    ) as any
    assert.equal(payload.Tipo, 'InvitacionAceptada')
    assert.equal(payload.Agencia.AdminMail, body.AdminMail)
    await invitation.refresh()
    const queuedAt = invitation.eventQueuedAt
    assert.isNotNull(queuedAt)
    await world.runner.runNow('invitations.poll')
    await invitation.refresh()
    assert.equal(invitation.eventQueuedAt?.toMillis(), queuedAt?.toMillis())
  })

  test('`ace jobs:run invitations.poll` runs the job now', async ({ client, assert }) => {
    const { token } = await createCaller()
    const { invitation } = await invite(client, token)
    await Invitation.query()
      .where('id', invitation.id)
      .update({ expiresAt: DateTime.now().minus({ minutes: 1 }).toSQL() })
    const ace = await app.container.make('ace')
    const command = await ace.exec('jobs:run', ['invitations.poll'])
    assert.equal(command.exitCode, 0)
    await invitation.refresh()
    assert.equal(invitation.state, 'expired')
  })
})

test.group('Agencies / mail without SMTP_HOST', () => {
  test('the eml mailer writes a complete message under DATA_DIR/mail', async ({ assert }) => {
    const subject = `Prueba eml ${Date.now()}`
    await mail.use('eml').send((message) => {
      message.to('someone@example.com').subject(subject).text('Hola').html('<p>Hola</p>')
    })
    const directory = join(app.makePath(process.env.DATA_DIR || 'tmp'), 'mail')
    const files = (await readdir(directory)).filter((file) => file.endsWith('.eml')).sort()
    const parsed = await Promise.all(
      files.slice(-5).map(async (file) => PostalMime.parse(await readFile(join(directory, file))))
    )
    const found = parsed.find((message) => message.subject === subject)
    assert.exists(found)
    assert.equal(found!.to?.[0].address, 'someone@example.com')
    assert.equal(found!.text?.trim(), 'Hola')
  })
})
