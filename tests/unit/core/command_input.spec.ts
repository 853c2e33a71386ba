import { test } from '@japa/runner'
import { MAX_ID, countOf, idOf } from '#core/commands/command_input'

test.group('Command input: ids and counts on an operator’s command line', () => {
  test('an id: 1 and the largest int4 accepted; 0, one beyond, signs, exponents, fractions, text refused', ({
    assert,
  }) => {
    assert.equal(idOf('1'), 1)
    assert.equal(idOf(String(MAX_ID)), MAX_ID)
    for (const bad of [
      undefined,
      '',
      '0',
      String(MAX_ID + 1),
      '99999999999',
      '-1',
      '+1',
      '1e3',
      '1.5',
      '01',
      'abc',
      ' 1',
    ])
      assert.isNull(idOf(bad), String(bad))
  })

  test('a count: 1 and the maximum accepted; 0, one beyond, 1.5, 1e3 and text refused', ({
    assert,
  }) => {
    assert.equal(countOf('1', 10_000), 1)
    assert.equal(countOf('10000', 10_000), 10_000)
    for (const bad of [undefined, '', '0', '10001', '99999999999', '1.5', '1e3', '-5', 'abc'])
      assert.isNull(countOf(bad, 10_000), String(bad))
  })
})
