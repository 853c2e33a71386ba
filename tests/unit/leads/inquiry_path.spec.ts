import { test } from '@japa/runner'
import { path } from '#core/http/links'
import { inquiryPath } from '#leads/transformers/inquiry_transformer'

test.group('inquiryPath', () => {
  test('the agency part made once is the one of the agency asked, whatever came before', ({
    assert,
  }) => {
    // Alternating agencies (an operator-wide list), one needing encoding, and no admin mail at all.
    const mails = ['ana@example.com', 'o+neil@example.com', '', 'ana@example.com', '']
    for (const mail of mails) {
      assert.equal(inquiryPath(mail, 'abc23xyz45'), path('consultas', mail, 'abc23xyz45'))
    }
  })
})
