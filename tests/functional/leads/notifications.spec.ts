import { test } from '@japa/runner'
import { Webhook } from 'standardwebhooks'
import { settings } from '#core/settings'
import db from '@adonisjs/lucid/services/db'
import { openSecret } from '#core/outbound/signer'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency, uniqueEmail } from '#tests/helpers/agencies'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import type { SmtpSink } from '#tests/helpers/smtp_sink'
import { assertValidAdf } from '#tests/helpers/adf'
import {
  configureNotifications,
  dealerWorld,
  inquiryBody,
  postInquiry,
  settledDeliveries,
  leadHarness,
  sidOf,
} from '#tests/helpers/leads'

const SECRET = 'una-clave-secreta-de-prueba-123'

function fullConfig(receiver: Receiver, extra: { adfMail: string; bcc: string[] }) {
  return {
    PublicacionConsultadaWebHook: {
      Callback: receiver.url('/webhook'),
      Secret: SECRET,
      Activo: true,
      HeaderCustom01: { Name: 'X-Api-Key', Value: 'clave-1' },
      HeaderCustom02: null,
      HeaderCustom03: { Name: 'X-Tenant', Value: 'concesionaria' },
    },
    PublicacionConsultadaAdfHook: {
      Callback: receiver.url('/adf'),
      Activo: true,
      HeaderCustom01: { Name: 'Authorization', Value: 'Bearer adf-token' },
    },
    PublicacionConsultadaAdfMail: { Email: extra.adfMail, Activo: true },
    PublicacionConsultadaHtmlMail: { EmailsCCO: extra.bcc.join(', '), Activo: true },
  }
}

test.group('Lead notifications: the four channels of one inquiry', (group) => {
  let receiver: Receiver
  let sink: SmtpSink

  leadHarness(group, (parts) => ({ receiver, sink } = parts))

  test('webhook (signed), ADF hook (valid ADF), ADF mail and HTML mail to both BCC', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld({ listing: { RefStock: 'STK-<1>' } })
    const adfMail = uniqueEmail('crm')
    const bcc = [uniqueEmail('ventas'), uniqueEmail('gerencia')]
    const put = await configureNotifications(client, world, fullConfig(receiver, { adfMail, bcc }))
    assert.isNull(put.body().PublicacionConsultadaWebHook.Secret)

    const body = inquiryBody(world.listing.externalId, {
      Nombre: 'Ana <b>& "Co"</b>',
      Comentario: 'Quiero <script>alert(1)</script> & más ]]>',
      Interes: 'PruebaDeManejo',
    })
    const created = await postInquiry(client, world, body)
    const sid = sidOf(created.header('location')!)
    const deliveries = await settledDeliveries(sid, 4)
    assert.deepEqual(
      deliveries.map((d) => d.status),
      ['delivered', 'delivered', 'delivered', 'delivered']
    )

    const requests = await receiver.waitFor(2)
    const hook = requests.find((r) => r.path === '/webhook')!
    const adf = requests.find((r) => r.path === '/adf')!

    // Webhook: Standard Webhooks signature, custom headers, payload of docs/design.md §9.
    const verified = new Webhook(new TextEncoder().encode(SECRET), { format: 'raw' }).verify(
      hook.body,
      {
        'webhook-id': hook.headers['webhook-id'] as string,
        'webhook-timestamp': hook.headers['webhook-timestamp'] as string,
        'webhook-signature': hook.headers['webhook-signature'] as string,
      }
    ) as any
    assert.equal(verified.Tipo, 'PublicacionConsultada')
    assert.equal(verified.Agencia.AdminMail, world.adminMail)
    assert.equal(verified.Consulta.Auto.ExternalId, world.listing.externalId)
    assert.equal(verified.Consulta.Interesado.Comentario, body.Interesado.Comentario)
    assert.equal(hook.headers['x-api-key'], 'clave-1')
    assert.equal(hook.headers['x-tenant'], 'concesionaria')
    assert.equal(hook.headers['webhook-id'], `msg_${sid}`)

    // ADF hook: valid against the DTD, values escaped, interest mapped, custom header sent.
    assert.match(adf.headers['content-type'] as string, /^application\/xml/)
    assert.equal(adf.headers.authorization, 'Bearer adf-token')
    assertValidAdf(adf.body)
    assert.include(adf.body, '<prospect status="new">')
    assert.include(adf.body, 'interest="test-drive"')
    assert.include(adf.body, 'Quiero &lt;script&gt;alert(1)&lt;/script&gt; &amp; más ]]&gt;')
    assert.include(adf.body, '<stock>STK-&lt;1&gt;</stock>')

    // ADF mail: the XML is the whole plain-text body; the agency's name is in the subject.
    const [adfMessage] = await sink.waitFor((m) => m.envelope.to.includes(adfMail))
    assert.include(adfMessage.parsed.subject!, world.fixture.agency.tradeName)
    assertValidAdf(adfMessage.parsed.text!)
    assert.equal(adfMessage.parsed.text!.trim(), adf.body.trim())

    // HTML mail: both blind-copy recipients in the envelope, none in the headers; HTML escaped; text part.
    const [htmlMessage] = await sink.waitFor((m) => m.envelope.to.includes(bcc[0]))
    assert.sameMembers(htmlMessage.envelope.to, bcc)
    assert.notInclude(htmlMessage.raw.split('\r\n\r\n')[0], bcc[0])
    assert.include(htmlMessage.parsed.subject!, world.fixture.agency.tradeName)
    assert.include(htmlMessage.parsed.html!, 'Ana &lt;b&gt;&amp; &quot;Co&quot;&lt;/b&gt;')
    assert.notInclude(htmlMessage.parsed.html!, '<script>')
    // The time it was received names the service's zone (TZ unset: Buenos Aires).
    assert.match(
      htmlMessage.parsed.html!,
      /\d{2}:\d{2} \(UTC-3, America\/Argentina\/Buenos_Aires\)/
    )
    assert.include(htmlMessage.parsed.text!, 'Quiero <script>alert(1)</script> & más ]]>')
  })
})

test.group('Lead notifications: configuration', () => {
  test('PUT stores per agency and app; GET returns it with Secret null', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const config = {
      PublicacionConsultadaWebHook: {
        Callback: 'http://127.0.0.1:9/hook',
        Secret: 'x'.repeat(16),
        Activo: true,
      },
      PublicacionConsultadaAdfMail: { Email: 'CRM@Example.com', Activo: false },
    }
    const put = await configureNotifications(client, world, config)
    const get = await client.get(`/v3/notificaciones/${world.adminMail}`).bearerToken(world.token)
    get.assertStatus(200)
    assert.deepEqual(get.body(), put.body())
    assert.deepEqual(get.body().PublicacionConsultadaWebHook, {
      Callback: 'http://127.0.0.1:9/hook',
      Secret: null,
      SecretConfigurado: true,
      Activo: true,
      HeaderCustom01: null,
      HeaderCustom02: null,
      HeaderCustom03: null,
    })
    assert.deepEqual(get.body().PublicacionConsultadaAdfMail, {
      Email: 'crm@example.com',
      Activo: false,
    })
    assert.isNull(get.body().PublicacionConsultadaAdfHook)
    assert.isNull(get.body().PublicacionConsultadaHtmlMail)
    assert.deepEqual(get.body()._links.edit, {
      href: `/v3/notificaciones/${world.adminMail}`,
      method: 'PUT',
    })

    // Another app linked to the same agency has its own (empty) configuration.
    const { app: other, token: otherToken } = await createCaller('Other app')
    await grantAgency(other, world.adminMail, false)
    const theirs = await client.get(`/v3/notificaciones/${world.adminMail}`).bearerToken(otherToken)
    theirs.assertStatus(200)
    assert.isNull(theirs.body().PublicacionConsultadaWebHook)
  })

  test('Secret is write-only: sealed at rest, kept when null or absent, removed by an empty string', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const url = `/v3/notificaciones/${world.adminMail}`
    const put = (Secret?: string | null) =>
      client
        .put(url)
        .bearerToken(world.token)
        .json({ PublicacionConsultadaWebHook: { Callback: 'https://hooks.example.com/a', Secret } })
    const stored = async () =>
      (
        await db
          .from('notification_configs')
          .where('agency_id', world.fixture.agency.id)
          .firstOrFail()
      ).webhook_secret as string | null
    const secret = 's3cr3t-'.padEnd(24, 'x')
    // SecretConfigurado says whether one is stored; the Secret itself is never echoed.
    const configured = async (response: Awaited<ReturnType<typeof put>>) => {
      response.assertStatus(200)
      assert.notInclude(response.text(), secret)
      assert.isNull(response.body().PublicacionConsultadaWebHook.Secret)
      const read = await client.get(url).bearerToken(world.token)
      assert.notInclude(read.text(), secret)
      assert.deepEqual(read.body(), response.body())
      return response.body().PublicacionConsultadaWebHook.SecretConfigurado
    }
    assert.isFalse(await configured(await put(undefined)), 'saved without a secret')
    assert.isTrue(await configured(await put(secret)), 'saved with one')
    const sealed = await stored()
    assert.isString(sealed)
    assert.notInclude(sealed!, secret)
    assert.equal(openSecret(sealed), secret)
    assert.isTrue(await configured(await put(null)), 'null keeps it')
    assert.equal(openSecret(await stored()), secret)
    assert.isTrue(await configured(await put(undefined)), 'absent keeps it')
    assert.equal(openSecret(await stored()), secret)
    assert.isFalse(await configured(await put('')), 'an empty string removes it')
    assert.isNull(await stored())
  })

  test('403 on PUT and 404 on GET when the agency does not exist for the app', async ({
    client,
  }) => {
    const world = await dealerWorld()
    const { token } = await createCaller('Stranger')
    const body = { PublicacionConsultadaAdfMail: { Email: 'crm@example.com', Activo: true } }
    ;(
      await client.put(`/v3/notificaciones/${world.adminMail}`).bearerToken(token).json(body)
    ).assertStatus(403)
    ;(
      await client.put(`/v3/notificaciones/nadie@example.com`).bearerToken(world.token).json(body)
    ).assertStatus(403)
    ;(await client.get(`/v3/notificaciones/${world.adminMail}`).bearerToken(token)).assertStatus(
      404
    )
  })

  test('validates Callback, Secret, headers, e-mails and the BCC list (both sides of each limit)', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Config app')
    const { agency } = await createAgency(caller)
    const put = (body: object) =>
      client.put(`/v3/notificaciones/${agency.adminMail}`).bearerToken(token).json(body)
    const hook = (fields: object) => ({
      PublicacionConsultadaWebHook: { Callback: 'https://hooks.example.com/x', ...fields },
    })
    const errorsOf = async (body: object) => {
      const response = await put(body)
      response.assertStatus(400)
      return Object.keys(response.body().Errors)
    }
    const longUrl = (length: number) =>
      'https://hooks.example.com/' + 'a'.repeat(length - 'https://hooks.example.com/'.length)

    ;(await put(hook({ Callback: longUrl(1024) }))).assertStatus(200)
    assert.deepEqual(await errorsOf(hook({ Callback: longUrl(1025) })), [
      'PublicacionConsultadaWebHook.Callback',
    ])
    assert.deepEqual(await errorsOf(hook({ Callback: '/relativo' })), [
      'PublicacionConsultadaWebHook.Callback',
    ])
    assert.deepEqual(await errorsOf(hook({ Callback: 'ftp://hooks.example.com/x' })), [
      'PublicacionConsultadaWebHook.Callback',
    ])
    assert.deepEqual(await errorsOf(hook({ Callback: 'https://u:p@hooks.example.com/x' })), [
      'PublicacionConsultadaWebHook.Callback',
    ])

    // http only while OUTBOUND_ALLOW_PRIVATE is on (local testing).
    ;(await put(hook({ Callback: 'http://hooks.example.com/x' }))).assertStatus(200)
    settings.outboundAllowPrivate = false
    try {
      assert.deepEqual(await errorsOf(hook({ Callback: 'http://hooks.example.com/x' })), [
        'PublicacionConsultadaWebHook.Callback',
      ])
      ;(await put(hook({ Callback: 'https://hooks.example.com/x' }))).assertStatus(200)
    } finally {
      settings.outboundAllowPrivate = true
    }

    ;(await put(hook({ Secret: 'a'.repeat(16) }))).assertStatus(200)
    ;(await put(hook({ Secret: 'a'.repeat(256) }))).assertStatus(200)
    assert.deepEqual(await errorsOf(hook({ Secret: 'a'.repeat(15) })), [
      'PublicacionConsultadaWebHook.Secret',
    ])
    assert.deepEqual(await errorsOf(hook({ Secret: 'a'.repeat(257) })), [
      'PublicacionConsultadaWebHook.Secret',
    ])

    assert.deepEqual(
      await errorsOf(hook({ HeaderCustom01: { Name: 'X-A', Value: 'a\r\nInjected: 1' } })),
      ['PublicacionConsultadaWebHook.HeaderCustom01.Value']
    )
    assert.deepEqual(
      await errorsOf(hook({ HeaderCustom02: { Name: 'Content-Type', Value: 'text/plain' } })),
      ['PublicacionConsultadaWebHook.HeaderCustom02.Name']
    )

    assert.deepEqual(
      await errorsOf({ PublicacionConsultadaAdfMail: { Email: 'no-es-mail', Activo: true } }),
      ['PublicacionConsultadaAdfMail.Email']
    )
    const ten = Array.from({ length: 10 }, (_, i) => `v${i}@example.com`).join(', ')
    const eleven = Array.from({ length: 11 }, (_, i) => `v${i}@example.com`).join(', ')
    ;(await put({ PublicacionConsultadaHtmlMail: { EmailsCCO: ten, Activo: true } })).assertStatus(
      200
    )
    assert.deepEqual(
      await errorsOf({ PublicacionConsultadaHtmlMail: { EmailsCCO: eleven, Activo: true } }),
      ['PublicacionConsultadaHtmlMail.EmailsCCO']
    )
    assert.deepEqual(
      await errorsOf({
        PublicacionConsultadaHtmlMail: { EmailsCCO: 'a@example.com, roto', Activo: true },
      }),
      ['PublicacionConsultadaHtmlMail.EmailsCCO']
    )
  })
})

test.group('Lead notifications: POST /v3/notificaciones/{adminmail}/prueba', (group) => {
  let receiver: Receiver
  const initial = settings.outboundAllowPrivate

  group.setup(async () => {
    receiver = await startReceiver()
    return () => receiver.close()
  })
  group.each.setup(() => receiver.reset())
  group.each.teardown(() => {
    settings.outboundAllowPrivate = initial
  })

  const probe = (client: any, world: { adminMail: string; token: string }, query = '') =>
    client.post(`/v3/notificaciones/${world.adminMail}/prueba${query}`).bearerToken(world.token)

  test('webhook: a signed Prueba payload now, with the custom headers; Estado 200; nothing queued', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: {
        Callback: receiver.url('/webhook'),
        Secret: SECRET,
        // Inactive: one tests before switching it on.
        Activo: false,
        HeaderCustom01: { Name: 'X-Api-Key', Value: 'clave-1' },
      },
    })
    const answer = await probe(client, world)
    answer.assertStatus(200)
    assert.deepEqual(Object.keys(answer.body()).sort(), ['DuracionMs', 'Error', 'Estado'])
    assert.equal(answer.body().Estado, 200)
    assert.isNull(answer.body().Error)
    assert.isAtLeast(answer.body().DuracionMs, 0)

    const [received] = await receiver.waitFor(1)
    assert.equal(received.path, '/webhook')
    assert.equal(received.headers['x-api-key'], 'clave-1')
    assert.equal(received.headers['content-type'], 'application/json; charset=utf-8')
    const payload = new Webhook(SECRET, { format: 'raw' }).verify(
      received.rawBody.toString(),
      received.headers as Record<string, string>
    ) as any
    assert.deepEqual(payload, {
      Tipo: 'Prueba',
      Momento: payload.Momento,
      Agencia: { AdminMail: world.adminMail, href: `/v3/agencias/${world.adminMail}` },
      Consulta: null,
    })
    assert.isFalse(Number.isNaN(Date.parse(payload.Momento)))
    const queued = await db.from('deliveries').where('target', receiver.url('/webhook'))
    assert.lengthOf(queued, 0, 'a test is not a delivery')

    // Without a Secret: sent unsigned, with a webhook-id, as the deliveries are.
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/plain'), Secret: '' },
    })
    ;(await probe(client, world, '?canal=PublicacionConsultadaWebHook')).assertStatus(200)
    const [, plain] = await receiver.waitFor(2)
    assert.equal(plain.path, '/plain')
    assert.isString(plain.headers['webhook-id'])
    assert.isUndefined(plain.headers['webhook-signature'])
    assert.equal(plain.json().Tipo, 'Prueba')
  })

  test('ADF hook (?canal=PublicacionConsultadaAdfHook): a valid ADF 1.0 test document', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/webhook'), Secret: SECRET },
      PublicacionConsultadaAdfHook: {
        Callback: receiver.url('/adf'),
        HeaderCustom01: { Name: 'Authorization', Value: 'Bearer adf-token' },
      },
    })
    const answer = await probe(client, world, '?canal=PublicacionConsultadaAdfHook')
    answer.assertStatus(200)
    assert.deepEqual(answer.body(), {
      Estado: 200,
      DuracionMs: answer.body().DuracionMs,
      Error: null,
    })
    const [received] = await receiver.waitFor(1)
    assert.equal(received.path, '/adf', 'the ADF hook, not the webhook')
    assert.equal(received.headers.authorization, 'Bearer adf-token')
    assert.equal(received.headers['content-type'], 'application/xml; charset=utf-8')
    assert.isString(received.headers['webhook-id'])
    assertValidAdf(received.body)
    assert.include(received.body, 'source="Prueba"')
    assert.include(received.body, 'Tipo: Prueba')
  })

  test('a receiver answering 500, or down: Estado says so, still 200 here', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/webhook'), Secret: SECRET },
    })
    receiver.script({ status: 500 })
    const failing = await probe(client, world)
    failing.assertStatus(200)
    assert.equal(failing.body().Estado, 500)
    assert.equal(failing.body().Error, 'HTTP 500')

    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: 'http://127.0.0.1:9/down', Secret: SECRET },
    })
    const down = await probe(client, world)
    down.assertStatus(200)
    assert.isNull(down.body().Estado)
    assert.isString(down.body().Error)
  })

  test('SSRF rules apply: a private callback is refused when private addresses are not allowed', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/webhook'), Secret: SECRET },
    })
    settings.outboundAllowPrivate = false
    const refused = await probe(client, world)
    refused.assertStatus(200)
    assert.isNull(refused.body().Estado)
    assert.match(refused.body().Error, /^private_address/)
    assert.lengthOf(receiver.requests, 0)
  })

  test('no callback for the channel: 404; unknown canal: 400; another app: 404', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const none = await probe(client, world)
    none.assertStatus(404)
    assert.include(none.body().Detail, 'PublicacionConsultadaWebHook')
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/webhook'), Secret: SECRET },
    })
    ;(await probe(client, world)).assertStatus(200)
    const noAdf = await probe(client, world, '?canal=PublicacionConsultadaAdfHook')
    noAdf.assertStatus(404)
    assert.include(noAdf.body().Detail, 'PublicacionConsultadaAdfHook')
    const bad = await probe(client, world, '?canal=sms')
    bad.assertStatus(400)
    assert.property(bad.body().Errors, 'canal')

    // Same isolation as the other notification routes.
    const { token: stranger } = await createCaller('Stranger')
    ;(await probe(client, { adminMail: world.adminMail, token: stranger })).assertStatus(404)
    const { app: other, token: otherToken } = await createCaller('Linked other')
    await grantAgency(other, world.adminMail, false)
    ;(await probe(client, { adminMail: world.adminMail, token: otherToken })).assertStatus(404)
    await receiver.waitFor(1)
    assert.lengthOf(receiver.requests, 1, "only the first app's own test was sent")
  })
})
