/*
 * `Errors` as answers list them (docs/design.md §25; issue 33 follow-up items
 * 2–3): at most 50 keys, the forbidden member names first so that a crowd of
 * other errors cannot hide them, and a long member path cut where it is echoed.
 */
import { test } from '@japa/runner'
import { OMITTED_KEY, addError, capErrors, errorMap } from '#core/http/error_map'

function many(count: number, prefix = 'Precio.u') {
  const errors = errorMap()
  for (let i = 0; i < count; i++)
    addError(errors, `${prefix}${i}`, `El campo ${prefix}${i} no existe.`)
  return errors
}

test.group('capErrors', () => {
  test('50 keys kept as they are; 51 → 50 and _omitidos counting 1', ({ assert }) => {
    assert.lengthOf(Object.keys(capErrors(many(50))), 50)
    const capped = capErrors(many(51))
    assert.lengthOf(Object.keys(capped), 51)
    assert.deepEqual(capped[OMITTED_KEY], ['Hay 1 campo más con errores que no se lista.'])
  })

  test('forbidden names listed first when capping, whatever their place', ({ assert }) => {
    const errors = many(190)
    addError(errors, '__proto__', 'El nombre __proto__ no se admite como campo.')
    addError(errors, 'constructor', 'El nombre constructor no se admite como campo.')
    addError(errors, 'Locacion.prototype', 'El nombre prototype no se admite como campo.')
    const keys = Object.keys(capErrors(errors))
    assert.deepEqual(keys.slice(0, 3), ['__proto__', 'constructor', 'Locacion.prototype'])
    assert.lengthOf(keys, 51)
    assert.equal(keys[50], OMITTED_KEY)
    assert.deepEqual(capErrors(errors)[OMITTED_KEY], [
      'Hay 143 campos más con errores que no se listan.',
    ])
  })

  test('a key of 64 characters is echoed whole; of 65 and of 1 MiB cut to 64 and …, in its message too', ({
    assert,
  }) => {
    for (const [length, shown] of [
      [64, 'x'.repeat(64)],
      [65, `${'x'.repeat(64)}…`],
      [1024 * 1024, `${'x'.repeat(64)}…`],
    ] as const) {
      const name = 'x'.repeat(length)
      const errors = errorMap()
      addError(errors, name, `El campo ${name} no existe en esta operación.`)
      const capped = capErrors(errors)
      assert.deepEqual(Object.keys(capped), [shown])
      assert.deepEqual(capped[shown], [`El campo ${shown} no existe en esta operación.`])
    }
  })
})
