/*
 * With OUTBOUND_ALLOW_PRIVATE off, a URL whose host is a non-public IP literal
 * is refused when it is configured (400 naming the field), on every field the
 * service later connects to: lead notification Callbacks, app notification
 * Callbacks and listing photo URLs. Public literals are accepted — these tests
 * only configure; nothing is ever sent to a public address.
 */
import { test } from '@japa/runner'
import { settings } from '#core/settings'
import { outboundPrivate } from '#tests/helpers/receiver'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { assertErrorKey, listingBody, setup } from '#tests/functional/listings/support'
import { listingCreateValidator } from '#listings/validators/listing'

const PRIVATE_LITERALS = [
  'https://169.254.169.254/latest/meta-data/',
  'https://10.0.0.1/hook',
  'https://[::1]/hook',
  'https://127.0.0.1:8443/hook',
  'https://[::7f00:1]/hook',
  'https://[::ffff:192.168.0.1]/hook',
  'https://[64:ff9b::a9fe:a9fe]/hook',
  'https://[2002:a00:1::1]/hook',
  'https://[fd00::1]/hook',
  'https://0x7f.1/hook', // WHATWG URL reads it as 127.0.0.1
]
const PUBLIC_LITERALS = [
  'https://93.184.216.34/x',
  'https://[2606:4700::1111]/x',
  'https://hooks.example.com/x',
]

test.group('SSRF at configuration time (OUTBOUND_ALLOW_PRIVATE off)', (group) => {
  outboundPrivate(group, false)

  test('lead notifications: a private IP-literal Callback is 400 on the field, a public one 200', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('SSRF leads')
    const { agency } = await createAgency(caller)
    const put = (Callback: string) =>
      client
        .put(`/v3/notificaciones/${agency.adminMail}`)
        .bearerToken(token)
        .json({
          PublicacionConsultadaWebHook: { Callback, Activo: true },
          PublicacionConsultadaAdfHook: { Callback, Activo: true },
        })
    for (const url of PRIVATE_LITERALS) {
      const response = await put(url)
      assert.equal(response.status(), 400, url)
      assert.equal(response.header('content-type'), 'application/problem+json; charset=utf-8')
      assert.sameMembers(
        Object.keys(response.body().Errors),
        ['PublicacionConsultadaWebHook.Callback', 'PublicacionConsultadaAdfHook.Callback'],
        url
      )
      assert.match(
        response.body().Errors['PublicacionConsultadaWebHook.Callback'][0],
        /no es pública/
      )
    }
    for (const url of PUBLIC_LITERALS) assert.equal((await put(url)).status(), 200, url)
  })

  test('app notifications: a private IP-literal Callback is 400 on the field, a public one 200', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller('SSRF apps')
    const put = (Callback: string) =>
      client
        .put('/v3/appnotificaciones/invitaciones')
        .bearerToken(token)
        .json({ Callback, Activo: true })
    for (const url of PRIVATE_LITERALS) {
      const response = await put(url)
      assert.equal(response.status(), 400, url)
      assert.deepEqual(Object.keys(response.body().Errors), ['Callback'], url)
    }
    for (const url of PUBLIC_LITERALS) assert.equal((await put(url)).status(), 200, url)
  })

  test('listing photos: a private IP-literal in Fotos.N is 400 on that entry', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    for (const url of PRIVATE_LITERALS.map((hook) => hook.replace(/\/[^/]*$/, '/foto.jpg'))) {
      const body = listingBody({ Fotos: ['https://fotos.example.com/1.jpg', url] })
      const response = await client.post(ctx.base).bearerToken(ctx.token).json(body)
      assert.equal(response.status(), 400, url)
      assertErrorKey(assert, response.body(), 'Fotos.1')
      assert.notInclude(Object.keys(response.body().Errors), 'Fotos.0')
    }
  })

  test('listing photos: public literals pass the validator (checked without creating, so nothing is fetched)', async ({
    assert,
  }) => {
    const validated = await listingCreateValidator.validate(listingBody({ Fotos: PUBLIC_LITERALS }))
    assert.deepEqual(validated.Fotos, PUBLIC_LITERALS)
  })

  test('with the flag on, private literals are accepted (local testing)', async ({
    client,
    assert,
  }) => {
    settings.outboundAllowPrivate = true
    const { token } = await createCaller('SSRF flag on')
    const response = await client
      .put('/v3/appnotificaciones/invitaciones')
      .bearerToken(token)
      .json({ Callback: 'http://127.0.0.1:9/x', Activo: true })
    assert.equal(response.status(), 200)
    const validated = await listingCreateValidator.validate(
      listingBody({ Fotos: ['http://10.0.0.1/a.jpg'] })
    )
    assert.deepEqual(validated.Fotos, ['http://10.0.0.1/a.jpg'])
  })
})
