/*
 * Mails a salesperson can answer (docs/design.md §24): the lead HTML mail, sent
 * through a real SMTP sink, has `Reply-To:` the buyer when the buyer gave an
 * e-mail (none when not), and prices as the buyers' page shows them.
 */
import { test } from '@japa/runner'
import type { SmtpSink } from '#tests/helpers/smtp_sink'
import type { Receiver } from '#tests/helpers/receiver'
import { uniqueEmail } from '#tests/helpers/agencies'
import {
  configureNotifications,
  dealerWorld,
  inquiryBody,
  leadHarness,
  postInquiry,
  settledDeliveries,
  sidOf,
} from '#tests/helpers/leads'

test.group('Lead HTML mail: a salesperson can answer it', (group) => {
  let sink: SmtpSink
  leadHarness(group, (parts: { receiver: Receiver; sink: SmtpSink }) => ({ sink } = parts))

  async function htmlMailOf(client: any, buyer: Record<string, unknown>, price: object) {
    const world = await dealerWorld({ listing: { Precio: price } })
    const bcc = uniqueEmail('ventas')
    await configureNotifications(client, world, {
      PublicacionConsultadaHtmlMail: { EmailsCCO: bcc, Activo: true },
    })
    const created = await postInquiry(client, world, inquiryBody(world.listing.externalId, buyer))
    await settledDeliveries(sidOf(created.header('location')!), 1)
    const [message] = await sink.waitFor((m) => m.envelope.to.includes(bcc))
    return message
  }

  test('Reply-To is the buyer (named) when an e-mail was given; the price reads $ 21.500.000', async ({
    client,
    assert,
  }) => {
    const email = uniqueEmail('comprador')
    const message = await htmlMailOf(
      client,
      { Nombre: 'Lucía', Apellido: 'Gómez', Email: email },
      { Moneda: 'ARS', Importe: 21500000 }
    )
    assert.deepEqual(
      message.parsed.replyTo?.map(({ address, name }) => ({ address, name })),
      [{ address: email, name: 'Lucía Gómez' }]
    )
    // es-AR currency format, as the buyers' page (#core/money_format): "$ 21.500.000".
    const price = new Intl.NumberFormat('es-AR', {
      style: 'currency',
      currency: 'ARS',
      maximumFractionDigits: 0,
    }).format(21500000)
    assert.match(price, /21\.500\.000/)
    assert.include(message.parsed.html!, price)
    assert.include(message.parsed.text!, `Precio: ${price}`)
    assert.notInclude(message.parsed.text!, 'ARS 21500000')
  }).timeout(30_000)

  test('no e-mail from the buyer: no Reply-To; cents and a foreign currency still read as on the page', async ({
    client,
    assert,
  }) => {
    const message = await htmlMailOf(
      client,
      { Email: null, Telefono: '+54 11 5555-1234' },
      { Moneda: 'USD', Importe: 18000.5 }
    )
    assert.isUndefined(message.parsed.replyTo)
    assert.notMatch(message.raw.split('\r\n\r\n')[0], /^reply-to:/im)
    // Intl separates the symbol with a no-break space: "US$\u00a018.000,50".
    assert.include(message.parsed.text!, 'Precio: US$\u00a018.000,50')
  }).timeout(30_000)
})
