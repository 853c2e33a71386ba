/*
 * The invitation mail throttle (docs/design.md §13): however many POSTs of one
 * AdminMail arrive, at most one invitation mail per 10 minutes; every answer
 * stays 202. Mails are counted at a real SMTP sink once every queued mail of
 * the invitation went out.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Invitation from '#agencies/models/invitation'
import { createCaller } from '#tests/helpers/apps'
import { until } from '#tests/helpers/until'
import {
  invitationBody,
  inviteAndRead,
  mailingGroup,
  mailsTo,
  postInvitation,
  registrationLink,
} from './support.js'

test.group('Agencies / invitation mail throttle: one mail per address per 10 minutes', (group) => {
  const world = mailingGroup(group)

  /** The mails that reached the sink for `email`, once every mail queued for its invitation was sent. */
  async function mailed(email: string) {
    await until(
      () => Invitation.findByOrFail('admin_email', email),
      (invitation) => invitation.mailedSequence >= invitation.mailSequence
    )
    return world.sink.messages.filter((message) => message.envelope.to.includes(email))
  }

  /** Moves the invitation's last mail `seconds` into the past (the window is 600 s). */
  function lastMailedSecondsAgo(email: string, seconds: number) {
    return db
      .from('invitations')
      .where('admin_email', email)
      .update({ last_mailed_at: db.raw(`now() - make_interval(secs => ?)`, [seconds]) })
  }

  test('10 sequential POSTs of one AdminMail: ten 202s, one mail', async ({ client, assert }) => {
    const { token } = await createCaller()
    const body = invitationBody()
    for (let post = 0; post < 10; post++) {
      await postInvitation(client, token, { ...body, NombreComercial: `Autos ${post}` })
    }
    await mailsTo(world.sink, body.AdminMail)
    assert.lengthOf(await mailed(body.AdminMail), 1)
  })

  test('30 concurrent POSTs of one AdminMail: thirty 202s, one invitation, one mail', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const body = invitationBody()
    const posts = await Promise.all(
      Array.from({ length: 30 }, () => client.post('/v3/agencias').bearerToken(token).json(body))
    )
    assert.deepEqual(
      posts.map((response) => response.status()),
      Array(30).fill(202)
    )
    assert.lengthOf(await Invitation.query().where('admin_email', body.AdminMail), 1)
    await mailsTo(world.sink, body.AdminMail)
    assert.lengthOf(await mailed(body.AdminMail), 1)
  })

  test('both sides of the window: 9:59 after the mail → none; 10:00 after → the same link again', async ({
    client,
    assert,
  }) => {
    const { token, body, link } = await inviteAndRead(client, world.sink)

    await lastMailedSecondsAgo(body.AdminMail, 599)
    await postInvitation(client, token, { ...body, NombreComercial: 'Dentro de la ventana' })
    assert.lengthOf(await mailed(body.AdminMail), 1)

    await lastMailedSecondsAgo(body.AdminMail, 600)
    await postInvitation(client, token, { ...body, NombreComercial: 'Autos del Plata SA' })
    const mails = await mailsTo(world.sink, body.AdminMail, 2)
    assert.lengthOf(await mailed(body.AdminMail), 2)
    assert.equal(registrationLink(mails[1]), link)
    assert.include(mails[1].parsed.subject ?? '', 'Autos del Plata SA')
  })

  test('the half-life reminder is not throttled away, and starts a window of its own', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const body = invitationBody()
    await postInvitation(client, token, body)
    await mailsTo(world.sink, body.AdminMail)
    // Half-life reached while the last mail is recent (as after a POST inside the window).
    await db
      .from('invitations')
      .where('admin_email', body.AdminMail)
      .update({
        sent_at: db.raw(`now() - interval '8 days'`),
        expires_at: db.raw(`now() + interval '6 days'`),
      })
    await lastMailedSecondsAgo(body.AdminMail, 60)
    await world.runner.runNow('invitations.poll')
    const mails = await mailsTo(world.sink, body.AdminMail, 2)
    assert.match(mails[1].parsed.subject ?? '', /^Recordatorio/)

    await postInvitation(client, token, body)
    assert.lengthOf(
      await mailed(body.AdminMail),
      2,
      'a POST right after the reminder mails nothing'
    )
  })
})
