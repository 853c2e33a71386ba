/*
 * The matching rules of a privacy request (docs/design.md §25, matching.ts):
 * phones as Argentine national numbers, a stored number without area code
 * only beside another identifier, documents by their digits and a CUIT by
 * its DNI, the form pages' marks.
 */
import { test } from '@japa/runner'
import {
  coincidence,
  documentKey,
  matchKeys,
  namesSomebody,
  phoneEndings,
  phoneKey,
  phonesMatch,
  searchKeys,
} from '#buyers/services/privacy/matching'
import { formMarks, markNeedles } from '#buyers/services/privacy/form_marks'

const stored = (fields: { email?: string; phone?: string; documentId?: string }) => ({
  email: fields.email ?? null,
  phone: fields.phone ?? null,
  documentId: fields.documentId ?? null,
})

test.group('Privacy matching: phones as national numbers', () => {
  test('the usual Argentine forms of one mobile give its 10-digit national number', ({
    assert,
  }) => {
    for (const form of [
      '+54 9 11 4444-1234',
      '011 15 4444-1234',
      '011 4444-1234',
      '11 4444-1234',
      '+54 11 4444-1234',
      '0054 9 11 4444 1234',
      '5491144441234',
      '(011) 4444-1234',
      '11 15 4444 1234',
    ])
      assert.deepEqual(
        phoneKey(form),
        { kind: 'national', value: '1144441234', ending: '1144441234' },
        form
      )
    // Another area code's length: Córdoba (351), with the mobile 15.
    assert.equal((phoneKey('0351 15 512-3456') as any).value, '3515123456')
    assert.equal((phoneKey('+54 9 351 512-3456') as any).value, '3515123456')
  })

  test('a number without area code is local (7–8 digits, the mobile 15 dropped); under 6 digits, nothing', ({
    assert,
  }) => {
    assert.deepEqual(phoneKey('4444-1234'), { kind: 'local', value: '44441234' })
    assert.deepEqual(phoneKey('15-4444-1234'), { kind: 'local', value: '44441234' })
    assert.deepEqual(phoneKey('444-1234'), { kind: 'local', value: '4441234' })
    assert.deepEqual(phoneKey('44-1234'), { kind: 'local', value: '441234' }) // 6 digits: the floor
    assert.isNull(phoneKey('4-1234')) // 5 digits
    assert.isNull(phoneKey(''))
    assert.isNull(phoneKey(null))
  })

  test('another country keeps its code; digits that are no valid number match only themselves', ({
    assert,
  }) => {
    assert.deepEqual(phoneKey('+1 415 555 2671'), {
      kind: 'national',
      value: '+14155552671',
      ending: '4155552671',
    })
    assert.deepEqual(phoneKey('1234567890123'), {
      kind: 'national',
      value: '1234567890123',
      ending: '1234567890123',
    })
  })

  test('equal national numbers match in full; a local number that ends one, only as local', ({
    assert,
  }) => {
    const juan = phoneKey('+54 9 11 4444-1234')
    assert.equal(phonesMatch(juan, phoneKey('011 15 4444-1234')), 'full')
    assert.equal(phonesMatch(juan, phoneKey('011 4444-1234')), 'full')
    assert.equal(phonesMatch(juan, phoneKey('4444-1234')), 'local')
    assert.equal(phonesMatch(phoneKey('15-4444-1234'), juan), 'local')
    assert.equal(phonesMatch(phoneKey('4444-1234'), phoneKey('15 4444 1234')), 'local')
    // Another area code, same subscriber digits: another person.
    assert.isNull(phonesMatch(juan, phoneKey('0351 4444-1234')))
    assert.isNull(phonesMatch(juan, phoneKey('4444-1235')))
    assert.isNull(phonesMatch(juan, null))
  })

  test('the endings a stored form may have: the number, and with the 15 after a 2-, 3- or 4-digit area code', ({
    assert,
  }) => {
    assert.deepEqual(phoneEndings(phoneKey('+54 9 11 4444-1234')), [
      '1144441234',
      '111544441234',
      '114154441234',
      '114415441234',
    ])
    assert.deepEqual(phoneEndings(phoneKey('+1 415 555 2671')), ['4155552671'])
    // A local number finds nothing by itself.
    assert.deepEqual(phoneEndings(phoneKey('4444-1234')), [])
    // Every form of the number ends with one of its endings.
    const endings = phoneEndings(phoneKey('+54 9 11 4444-1234'))
    for (const form of [
      '011 15 4444-1234',
      '+54 9 11 4444-1234',
      '011 4444-1234',
      '11-15-4444-1234',
    ])
      assert.isTrue(
        endings.some((ending) => form.replace(/\D/g, '').endsWith(ending)),
        form
      )
  })
})

test.group('Privacy matching: documents', () => {
  test('by their digits; a CUIT by the DNI inside it (digits 3–10); leading zeros dropped', ({
    assert,
  }) => {
    assert.equal(documentKey('30.123.456'), '30123456')
    assert.equal(documentKey('20-30123456-7'), '30123456')
    assert.equal(documentKey('27301234563'), '30123456')
    // A 7-digit DNI: written with a 0 in its CUIT.
    assert.equal(documentKey('5.123.456'), '5123456')
    assert.equal(documentKey('20-05123456-3'), '5123456')
    // Only 11 digits are a CUIT: 10 or 12 digits are compared whole.
    assert.equal(documentKey('2030123456'), '2030123456')
    assert.equal(documentKey('203012345678'), '203012345678')
    assert.equal(documentKey('123456'), '123456') // 6 digits: the floor
    assert.isNull(documentKey('12345'))
    assert.isNull(documentKey(null))
  })

  test('both directions: a request CUIT finds the stored DNI, a request DNI the stored CUIT', ({
    assert,
  }) => {
    assert.deepEqual(
      coincidence(matchKeys({ document: '20-30123456-7' }), stored({ documentId: '30.123.456' })),
      ['DocIdentidad']
    )
    assert.deepEqual(
      coincidence(matchKeys({ document: '30123456' }), stored({ documentId: '20-30123456-7' })),
      ['DocIdentidad']
    )
    assert.deepEqual(
      coincidence(matchKeys({ document: '30123457' }), stored({ documentId: '20-30123456-7' })),
      []
    )
  })
})

test.group('Privacy matching: which inquiries name the person', () => {
  test('Juan and Wanda: Juan’s full number does not take in Wanda’s number without area code', ({
    assert,
  }) => {
    const juan = matchKeys({ phone: '+54 9 11 4444-1234' })
    const wanda = stored({ email: 'wanda@example.com', phone: '4444-1234' })
    assert.deepEqual(coincidence(juan, wanda), [])
    // Wanda's own request, with her e-mail: her inquiry, by both.
    const hers = matchKeys({ email: 'Wanda@Example.com', phone: '+54 9 11 4444-1234' })
    assert.deepEqual(coincidence(hers, wanda), ['Email', 'Telefono'])
    // Juan's own inquiries, however he wrote the number.
    for (const form of ['011 15 4444-1234', '15-4444-1234', '011 4444-1234']) {
      const expected = form === '15-4444-1234' ? [] : ['Telefono']
      assert.deepEqual(coincidence(juan, stored({ phone: form })), expected, form)
    }
  })

  test('a local phone in the request counts only beside an e-mail or document that matched', ({
    assert,
  }) => {
    const asked = matchKeys({ phone: '444-1234', email: 'ana@example.com' })
    assert.isTrue(namesSomebody(asked))
    assert.deepEqual(coincidence(asked, stored({ email: 'ANA@example.com', phone: '444-1234' })), [
      'Email',
      'Telefono',
    ])
    assert.deepEqual(
      coincidence(asked, stored({ email: 'otra@example.com', phone: '444-1234' })),
      []
    )
    // Alone, it names nobody and searches nothing.
    const alone = matchKeys({ phone: '444-1234' })
    assert.isFalse(namesSomebody(alone))
    assert.deepEqual(searchKeys(alone), { email: null, documentKey: null, phoneEndings: [] })
  })

  test('the order of Coincidencia is fixed: Email, Telefono, DocIdentidad', ({ assert }) => {
    const asked = matchKeys({
      document: '30.123.456',
      phone: '11 4444-1234',
      email: 'a@example.com',
    })
    assert.deepEqual(
      coincidence(
        asked,
        stored({ email: 'a@example.com', phone: '+5491144441234', documentId: '20301234567' })
      ),
      ['Email', 'Telefono', 'DocIdentidad']
    )
  })
})

test.group('Privacy matching: the marks of a kept form page', () => {
  test('the e-mail lower-cased and the national number; found by the request however typed', ({
    assert,
  }) => {
    assert.deepEqual(formMarks({ email: 'Wanda@Example.COM', phone: '011 15 4444-1234' }), [
      'e:wanda@example.com',
      'p:1144441234',
    ])
    // A number without area code makes no mark (it names nobody alone).
    assert.deepEqual(formMarks({ phone: '4444-1234' }), [])
    assert.deepEqual(formMarks({ email: 42, phone: ['x'] }), [])
    const needles = markNeedles(
      matchKeys({ email: 'WANDA@example.com', phone: '+54 9 11 4444-1234' })
    )
    assert.deepEqual(needles, ['"e:wanda@example.com"', '"p:1144441234"'])
    // Quoted: a longer number is not found by a shorter one.
    const kept = JSON.stringify({ _marcas: ['p:11444412345'] })
    assert.notInclude(kept, needles[1])
    assert.include(JSON.stringify({ _marcas: formMarks({ phone: '11 4444-1234' }) }), needles[1])
  })
})
