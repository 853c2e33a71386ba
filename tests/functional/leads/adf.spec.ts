import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { buildAdf } from '#leads/adf/adf_builder'
import Inquiry from '#leads/models/inquiry'
import { assertValidAdf } from '#tests/helpers/adf'
import { vehicleSnapshot } from '#tests/helpers/leads'

function inquiry(fields: Partial<Inquiry> = {}) {
  return new Inquiry().merge({
    sid: 'abcdefghjk',
    receivedAt: DateTime.now(),
    origin: 'Portal',
    kind: 'listing',
    externalId: 'EXT-1',
    vehicle: vehicleSnapshot(),
    interest: null,
    firstName: null,
    lastName: null,
    email: 'comprador@example.com',
    phone: null,
    documentId: null,
    province: null,
    city: null,
    comment: null,
    operationInfo: null,
    operatorEmail: 'vendedor@example.com',
    ...fields,
  })
}

const agency = { adminMail: 'admin@example.com', tradeName: 'Autos & Cía' }

test.group('ADF 1.0 builder', () => {
  test('Interes maps to the ADF vehicle interest; the document stays valid', ({ assert }) => {
    const expected = {
      Compra: 'buy',
      Financiacion: 'lease',
      Permuta: 'trade-in',
      PruebaDeManejo: 'test-drive',
    }
    for (const [interest, adf] of Object.entries(expected)) {
      const xml = buildAdf({ inquiry: inquiry({ interest }), agency, operator: null })
      assertValidAdf(xml)
      assert.include(xml, `<vehicle interest="${adf}" status="new">`, interest)
    }
    assert.include(buildAdf({ inquiry: inquiry(), agency, operator: null }), 'interest="buy"')
  })

  test('valid with a phone only, no names, a catalogue vehicle, and a full operation', ({
    assert,
  }) => {
    assertValidAdf(
      buildAdf({
        inquiry: inquiry({ email: null, phone: '011 4444-5555' }),
        agency,
        operator: null,
      })
    )
    assertValidAdf(
      buildAdf({
        inquiry: inquiry({
          kind: 'catalog',
          externalId: '',
          vehicle: vehicleSnapshot({
            externalId: '',
            brand: 'Ford',
            model: 'Ranger',
            version: null,
            versionYear: null,
            mileage: null,
            bodyType: 'Pick-up',
          }),
        }),
        agency,
        operator: { email: 'op@example.com', firstName: 'Olga', lastName: 'Pérez' },
      })
    )
    const full = buildAdf({
      inquiry: inquiry({
        firstName: 'Juan',
        lastName: 'Pérez',
        phone: '+54 9 11 5555-0000',
        documentId: '20123456',
        province: 'Córdoba',
        city: 'Río Cuarto',
        comment: 'Hola',
        interest: 'Permuta',
        vehicle: {
          externalId: 'EXT-1',
          refStock: 'R-9',
          brand: 'VW',
          model: 'Amarok',
          version: 'V6',
          versionYear: 2021,
          mileage: 45000,
          color: 'Negro',
          bodyType: 'Pick-up',
          condition: 'Usado',
          price: { currency: 'USD', amount: 38000 },
          downPayment: null,
          installment: null,
        },
        operationInfo: {
          tradeIn: { brand: 'Fiat', model: 'Uno', versionYear: 2010 },
          financing: {
            downPayment: { currency: 'ARS', amount: 5e6 },
            installment: { currency: 'ARS', amount: 250000 },
          },
          wantsInsuranceQuote: true,
        },
      }),
      agency,
      operator: { email: 'op@example.com', firstName: 'Olga', lastName: 'Pérez' },
      resend: true,
    })
    assertValidAdf(full)
    assert.include(full, '<prospect status="resend">')
    assert.include(full, '<vehicle interest="trade-in" status="used">')
    assert.include(full, '<odometer units="km">45000</odometer>')
    assert.include(full, '<amount type="monthly" limit="maximum" currency="ARS">250000.00</amount>')
    assert.include(full, '<vendorname>Autos &amp; Cía</vendorname>')
  })

  test('markup and characters XML cannot carry are escaped or dropped', ({ assert }) => {
    const xml = buildAdf({
      inquiry: inquiry({
        firstName: '</name><injected/>',
        comment: 'a\u0000b\u0007c ]]> <!-- x --> & "q"',
      }),
      agency,
      operator: null,
    })
    assertValidAdf(xml)
    assert.notInclude(xml, '<injected/>')
    assert.include(xml, '&lt;/name&gt;&lt;injected/&gt;')
    assert.include(xml, 'abc ]]&gt; &lt;!-- x --&gt; &amp; "q"')
  })
})
