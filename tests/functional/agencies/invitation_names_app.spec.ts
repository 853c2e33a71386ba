/*
 * The invitation mail names the inviting app (docs/design.md §24), so an
 * administrator can tell a real invitation from someone posing as one. Real
 * SMTP sink; the app's name as it is stored.
 */
import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { invitationBody, mailingGroup, mailsTo, postInvitation } from './support.js'

test.group('Agencies / the invitation mail names who invites', (group) => {
  const world = mailingGroup(group)

  test('both parts name the app; its name is escaped in the HTML', async ({ client, assert }) => {
    const { token } = await createCaller('Concesionarias <Unidas> & Cía')
    const body = invitationBody()
    await postInvitation(client, token, body)
    const [message] = await mailsTo(world.sink, body.AdminMail)
    assert.include(
      message.parsed.text!,
      'La aplicación «Concesionarias <Unidas> & Cía», que trabaja con nuestro servicio, invitó a Autos del Plata'
    )
    assert.include(message.parsed.html!, '«Concesionarias &lt;Unidas&gt; &amp; Cía»')
    assert.notInclude(message.parsed.html!, '<Unidas>')
  }).timeout(30_000)
})
