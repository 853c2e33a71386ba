import { test } from '@japa/runner'
import {
  MAX_KM_PER_YEAR,
  changesNothing,
  chooseExposure,
  choosePhone,
  mileageIssue,
  slugFor,
  transition,
  type PlanView,
} from '#listings/services/listing_rules'
import type { Exposure } from '#listings/models/listing'

const plan = (high: number, medium: number, low: number): PlanView => ({
  capacity: high + medium + low,
  quotas: { high, medium, low },
})
const used = (high: number, medium: number, low: number): Record<Exposure, number> => ({
  high,
  medium,
  low,
})

test.group('Listing rules: state machine (docs/spec.md §2.3)', () => {
  test('archived is terminal, whatever the target', ({ assert }) => {
    for (const to of ['active', 'suspended', 'archived'] as const) {
      const result = transition('archived', to)
      assert.isFalse(result.ok, to)
      assert.equal(!result.ok && result.reason, 'archived')
    }
  })

  test('active and suspended move freely; only entering active is an activation', ({ assert }) => {
    assert.deepEqual(transition('suspended', 'active'), { ok: true, value: { activating: true } })
    assert.deepEqual(transition('active', 'active'), { ok: true, value: { activating: false } })
    assert.deepEqual(transition('active', 'suspended'), {
      ok: true,
      value: { activating: false },
    })
    assert.deepEqual(transition('active', 'archived'), { ok: true, value: { activating: false } })
    assert.deepEqual(transition('suspended', 'archived'), {
      ok: true,
      value: { activating: false },
    })
  })
})

test.group('Listing rules: mileage plausibility', () => {
  test('0 km: this and last year pass, two years old fails', ({ assert }) => {
    assert.isNull(mileageIssue(2026, 0, 2026))
    assert.isNull(mileageIssue(2025, 0, 2026))
    assert.equal(mileageIssue(2024, 0, 2026)?.issue, 'zero_when_used')
    // A model year ahead of the calendar is new as well.
    assert.isNull(mileageIssue(2027, 0, 2026))
    // Any mileage above 0 on an old vehicle is not the 0 km rule.
    assert.isNull(mileageIssue(2024, 1, 2026))
  })

  test(`at most ${MAX_KM_PER_YEAR} km per year of age, at least one year counted`, ({ assert }) => {
    assert.isNull(mileageIssue(2026, MAX_KM_PER_YEAR, 2026))
    assert.equal(mileageIssue(2026, MAX_KM_PER_YEAR + 1, 2026)?.issue, 'implausible')
    assert.isNull(mileageIssue(2025, MAX_KM_PER_YEAR, 2026))
    assert.equal(mileageIssue(2025, MAX_KM_PER_YEAR + 1, 2026)?.issue, 'implausible')
    assert.isNull(mileageIssue(2020, 6 * MAX_KM_PER_YEAR, 2026))
    assert.equal(mileageIssue(2020, 6 * MAX_KM_PER_YEAR + 1, 2026)?.issue, 'implausible')
    assert.isNull(mileageIssue(2027, MAX_KM_PER_YEAR, 2026))
    assert.equal(mileageIssue(2027, MAX_KM_PER_YEAR + 1, 2026)?.issue, 'implausible')
  })
})

test.group('Listing rules: exposure choice', () => {
  test('the requested level while its quota has room, else the best level with room', ({
    assert,
  }) => {
    const base = { current: undefined, willBeActive: true }
    assert.deepEqual(
      chooseExposure({ ...base, requested: 'high', plan: plan(1, 1, 1), used: used(0, 0, 0) }),
      { ok: true, value: 'high' }
    )
    // Quota 1, one used: full (room means strictly more quota than use).
    assert.deepEqual(
      chooseExposure({ ...base, requested: 'high', plan: plan(1, 1, 1), used: used(1, 0, 0) }),
      { ok: true, value: 'medium' }
    )
    assert.deepEqual(
      chooseExposure({ ...base, requested: 'high', plan: plan(2, 1, 1), used: used(1, 0, 0) }),
      { ok: true, value: 'high' }
    )
    assert.deepEqual(
      chooseExposure({ ...base, requested: 'medium', plan: plan(1, 1, 1), used: used(0, 1, 0) }),
      { ok: true, value: 'high' }
    )
    assert.deepEqual(
      chooseExposure({ ...base, requested: null, plan: plan(0, 0, 1), used: used(0, 0, 0) }),
      { ok: true, value: 'low' }
    )
  })

  test('not sent keeps the current level while it has room; null asks for the best', ({
    assert,
  }) => {
    const base = { willBeActive: true, plan: plan(1, 1, 1), used: used(0, 0, 0) }
    assert.deepEqual(chooseExposure({ ...base, requested: undefined, current: 'low' }), {
      ok: true,
      value: 'low',
    })
    assert.deepEqual(chooseExposure({ ...base, requested: null, current: 'low' }), {
      ok: true,
      value: 'high',
    })
    assert.deepEqual(
      chooseExposure({ ...base, requested: undefined, current: 'low', used: used(0, 0, 1) }),
      { ok: true, value: 'high' }
    )
  })

  test('no room anywhere: an active listing fails, an inactive one keeps its level', ({
    assert,
  }) => {
    const full = { plan: plan(1, 1, 1), used: used(1, 1, 1) }
    const result = chooseExposure({
      ...full,
      requested: 'high',
      current: undefined,
      willBeActive: true,
    })
    assert.isFalse(result.ok)
    assert.equal(!result.ok && result.reason, 'no_quota')
    // Inactive listings do not use quota: the level's own quota decides.
    assert.deepEqual(
      chooseExposure({ ...full, requested: 'high', current: undefined, willBeActive: false }),
      { ok: true, value: 'high' }
    )
    const none = { plan: plan(0, 0, 0), used: used(0, 0, 0), willBeActive: false }
    assert.deepEqual(chooseExposure({ ...none, requested: 'medium', current: 'high' }), {
      ok: true,
      value: 'medium',
    })
    assert.deepEqual(chooseExposure({ ...none, requested: undefined, current: 'high' }), {
      ok: true,
      value: 'high',
    })
    assert.deepEqual(chooseExposure({ ...none, requested: undefined, current: undefined }), {
      ok: true,
      value: 'low',
    })
    assert.isFalse(
      chooseExposure({ ...none, requested: 'low', current: undefined, willBeActive: true }).ok
    )
  })
})

test.group('Listing rules: responsible phone', () => {
  const phones = ['+5491111111111', '+5492222222222']

  test('a sent phone must be one of the operator’s', ({ assert }) => {
    assert.deepEqual(choosePhone(phones[1], null, phones), { ok: true, value: phones[1] })
    const result = choosePhone('+5493333333333', phones[0], phones)
    assert.isFalse(result.ok)
    assert.equal(!result.ok && result.reason, 'not_of_operator')
    assert.isFalse(choosePhone(phones[0], null, []).ok)
  })

  test('null picks the first; not sent keeps a current phone that is still valid', ({ assert }) => {
    assert.deepEqual(choosePhone(null, phones[1], phones), { ok: true, value: phones[0] })
    assert.deepEqual(choosePhone(undefined, phones[1], phones), { ok: true, value: phones[1] })
    assert.deepEqual(choosePhone(undefined, '+5493333333333', phones), {
      ok: true,
      value: phones[0],
    })
    assert.deepEqual(choosePhone(undefined, null, []), { ok: true, value: null })
    assert.deepEqual(choosePhone(null, null, []), { ok: true, value: null })
  })
})

test.group('Listing rules: slug', () => {
  test('folded, dashed, each part cut at 60 characters, never empty', ({ assert }) => {
    assert.equal(slugFor('Citroën', 'C4 Cactus', 2024, 'ab12cd'), 'citroen-c4-cactus-2024-ab12cd')
    assert.equal(slugFor('¡¡', '--', 2020, 'x'), 'auto-auto-2020-x')
    const sixty = 'a'.repeat(60)
    assert.equal(slugFor(sixty, sixty + 'b', 2020, 'x'), `${sixty}-${sixty}-2020-x`)
  })
})

test.group('changesNothing (docs/design.md §19)', () => {
  const row = {
    colour: 'Gris',
    description: null,
    priceAmount: 100,
    customSpecs: [{ name: 'Potencia', value: '170 CV' }],
  }

  test('the values a row already has change nothing; null and absent alike', ({ assert }) => {
    assert.isTrue(changesNothing({}, row))
    assert.isTrue(changesNothing({ colour: 'Gris', description: null, price_amount: 100 }, row))
    assert.isTrue(
      changesNothing({ custom_specs: JSON.stringify([{ name: 'Potencia', value: '170 CV' }]) }, row)
    )
  })

  test('one different value next to equal ones is a change', ({ assert }) => {
    assert.isFalse(changesNothing({ colour: 'Gris', price_amount: 101 }, row))
    assert.isFalse(changesNothing({ description: '' }, row))
    assert.isFalse(changesNothing({ custom_specs: '[]' }, row))
    assert.isFalse(changesNothing({ price_amount: null }, row))
  })
})
