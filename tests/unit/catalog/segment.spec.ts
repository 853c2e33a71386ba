import { test } from '@japa/runner'
import { UNCLASSIFIED, deriveSegment, segmentsOf } from '#catalog/services/segment'

test.group('Catalogue: derived Segmento', () => {
  test('passenger bodies: size letter by displacement, each bound inclusive', ({ assert }) => {
    const cases: [number, string][] = [
      [1, 'A'],
      [1100, 'A'],
      [1101, 'B'],
      [1600, 'B'],
      [1601, 'C'],
      [2000, 'C'],
      [2001, 'D'],
      [3000, 'D'],
      [3001, 'E'],
    ]
    for (const [displacement, letter] of cases) {
      assert.equal(deriveSegment('Sedán', displacement, 500), letter, String(displacement))
    }
    for (const body of ['Hatchback', 'Rural', 'SUV', 'Coupé', 'Convertible', 'Monovolumen', null])
      assert.equal(deriveSegment(body, 1598, null), 'B', String(body))
  })

  test('without displacement (electric) the power in CV decides', ({ assert }) => {
    const cases: [number, string][] = [
      [80, 'A'],
      [81, 'B'],
      [120, 'B'],
      [121, 'C'],
      [180, 'C'],
      [181, 'D'],
      [300, 'D'],
      [301, 'E'],
    ]
    for (const [power, letter] of cases) {
      assert.equal(deriveSegment('SUV', null, power), letter, String(power))
      assert.equal(deriveSegment('SUV', 0, power), letter, `0 cm³, ${power} CV`)
    }
  })

  test('pick-ups by displacement; vans, minibuses and chassis are Utilitario', ({ assert }) => {
    assert.equal(deriveSegment('Pick-up', 1600, null), 'Pick-up chica')
    assert.equal(deriveSegment('Pick-up', 1601, null), 'Pick-up mediana')
    assert.equal(deriveSegment('Pick-up', 3000, null), 'Pick-up mediana')
    assert.equal(deriveSegment('Pick-up', 3001, null), 'Pick-up grande')
    assert.equal(deriveSegment('Pick-up', null, 400), 'Pick-up')
    for (const body of ['Utilitario', 'Furgón', 'Minibús', 'Chasis'])
      assert.equal(deriveSegment(body, null, null), 'Utilitario')
  })

  test('no figure at all: the model’s most common segment, else Sin clasificar', ({ assert }) => {
    assert.equal(deriveSegment('Sedán', null, null), UNCLASSIFIED)
    assert.deepEqual(
      segmentsOf([
        { bodyType: 'Sedán', displacement: 1800, power: null, segment: null },
        { bodyType: 'Sedán', displacement: 2000, power: null, segment: null },
        { bodyType: 'Sedán', displacement: 2500, power: null, segment: null },
        { bodyType: 'Sedán', displacement: null, power: null, segment: null },
      ]),
      ['C', 'C', 'D', 'C']
    )
    // Imported segments are kept as they are and count for the model.
    assert.deepEqual(
      segmentsOf([
        { bodyType: 'Pick-up', displacement: 2800, power: null, segment: 'Pick-up 4x4' },
        { bodyType: 'Pick-up', displacement: 2800, power: null, segment: 'Pick-up 4x4' },
        { bodyType: 'Pick-up', displacement: 2400, power: null, segment: null },
        { bodyType: 'Pick-up', displacement: null, power: null, segment: null },
      ]),
      ['Pick-up 4x4', 'Pick-up 4x4', 'Pick-up mediana', 'Pick-up 4x4']
    )
    assert.deepEqual(
      segmentsOf([{ bodyType: null, displacement: null, power: null, segment: null }]),
      [UNCLASSIFIED]
    )
  })
})
