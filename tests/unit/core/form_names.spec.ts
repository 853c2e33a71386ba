/*
 * Forbidden member names in form text (docs/design.md §25; issue 33 follow-up
 * item 4): read from the raw text, decoded and cut as the form parser does,
 * keyed by the path up to the forbidden name.
 */
import { test } from '@japa/runner'
import { checkFormNames } from '#core/http/input_gate'
import { errorMap } from '#core/http/error_map'

const keys = (text: string) => {
  const errors = errorMap()
  checkFormNames(text, errors)
  return Object.keys(errors)
}

test.group('checkFormNames', () => {
  test('each forbidden name, plain, bracketed, dotted or encoded, keyed by its path', ({
    assert,
  }) => {
    const cases: Array<[string, string[]]> = [
      ['__proto__=1', ['__proto__']],
      ['__proto__[x]=1', ['__proto__']],
      ['constructor=1', ['constructor']],
      ['constructor[prototype][x]=1', ['constructor']],
      ['Nombre[__proto__]=1', ['Nombre.__proto__']],
      ['Nombre.prototype=1', ['Nombre.prototype']],
      ['%5F%5Fproto%5F%5F=1', ['__proto__']],
      ['Nombre%5Bconstructor%5D', ['Nombre.constructor']],
      ['a=1&__proto__=1&__proto__=2&b[constructor]=3', ['__proto__', 'b.constructor']],
    ]
    for (const [text, expected] of cases) assert.deepEqual(keys(text), expected, text)
  })

  test('the names as values, inside longer names or in another case pass', ({ assert }) => {
    for (const text of [
      'Nombre=__proto__',
      'Comentario=constructor%20prototype',
      'x__proto__y=1',
      'Constructor=1',
      'Nombre[prototypes]=1',
      'a=%',
    ]) {
      assert.deepEqual(keys(text), [], text)
    }
  })
})
