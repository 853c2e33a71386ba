/*
 * The JSON shape scan run on a body's text before JSON.parse (docs/design.md
 * §25; issue 33 follow-up item 1): nesting and members per object, refused
 * from the text, strings (with their escapes) skipped, the offending object
 * named by its wire path; long names cut where echoed.
 */
import { test } from '@japa/runner'
import { jsonShapeOffence, parseJsonBody } from '#core/http/json_shape'
import { ECHOED_NAME_CHARS, echoedName } from '#core/http/error_map'
import { MAX_DEPTH, MAX_MEMBERS } from '#core/http/input_gate'

const object = (count: number, prefix = 'k') =>
  `{${Array.from({ length: count }, (_, i) => `"${prefix}${i}":0`).join(',')}}`

const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`

test.group('jsonShapeOffence', () => {
  test('200 members in one object pass; 201 are refused, keyed by the body', ({ assert }) => {
    assert.equal(MAX_MEMBERS, 200)
    assert.isNull(jsonShapeOffence(object(200)))
    assert.deepEqual(jsonShapeOffence(object(201)), { kind: 'members', path: '' })
  })

  test('32 levels pass; 33 are refused (objects and lists alike)', ({ assert }) => {
    assert.equal(MAX_DEPTH, 32)
    assert.isNull(jsonShapeOffence(nested(32)))
    assert.deepEqual(jsonShapeOffence(nested(33)), { kind: 'depth' })
    assert.isNull(jsonShapeOffence(`${'['.repeat(32)}${']'.repeat(32)}`))
    assert.deepEqual(jsonShapeOffence(`${'['.repeat(33)}${']'.repeat(33)}`), { kind: 'depth' })
  })

  test('members counted per object: siblings of 200 each pass; the wide one is named by its path', ({
    assert,
  }) => {
    assert.isNull(jsonShapeOffence(`{"a":${object(200)},"b":${object(200)}}`))
    assert.deepEqual(jsonShapeOffence(`{"a":${object(200)},"Precio":${object(201)}}`), {
      kind: 'members',
      path: 'Precio',
    })
    assert.deepEqual(jsonShapeOffence(`{"Items":[1,{"x":[]},${object(201)}]}`), {
      kind: 'members',
      path: 'Items.2',
    })
    assert.deepEqual(jsonShapeOffence(`{"\\u0041b":${object(201)}}`), {
      kind: 'members',
      path: 'Ab',
    })
  })

  test('brackets, commas and quotes inside strings are text, not shape', ({ assert }) => {
    const tricky = `"{[,\\"]}${','.repeat(300)}"`
    assert.isNull(jsonShapeOffence(`{"a":${tricky},"b":[${tricky}]}`))
    assert.isNull(jsonShapeOffence(`{"${'{'.repeat(40)}":"${'['.repeat(40)}"}`))
    // A list's items are not members: 1000 of them pass.
    assert.isNull(jsonShapeOffence(`[${Array(1000).fill('{"a":1}').join(',')}]`))
  })

  test('a long member name in the path is cut at 64 characters', ({ assert }) => {
    const name = 'n'.repeat(1000)
    const offence = jsonShapeOffence(`{"${name}":${object(201)}}`)
    assert.deepEqual(offence, { kind: 'members', path: `${'n'.repeat(64)}…` })
  })
})

test.group('parseJsonBody', () => {
  test('the value as sent (strings trimmed, __proto__ kept as an own member); empty → {}', ({
    assert,
  }) => {
    const body = parseJsonBody('{"a":" x ","__proto__":{"b":1}}') as any
    assert.equal(body.a, 'x')
    assert.isTrue(Object.hasOwn(body, '__proto__'))
    assert.deepEqual(parseJsonBody(''), {})
  })

  test('refusals are 400 problems: shape, scalar body, invalid JSON', ({ assert }) => {
    const refused = (text: string) => {
      try {
        parseJsonBody(text)
      } catch (error: any) {
        return { status: error.status, errors: { ...error.options.errors } }
      }
      return null
    }
    assert.deepEqual(refused(object(201)), {
      status: 400,
      errors: { _: ['El cuerpo tiene más de 200 campos.'] },
    })
    assert.deepEqual(refused(`{"P":${object(201)}}`), {
      status: 400,
      errors: { P: ['El objeto P tiene más de 200 campos.'] },
    })
    assert.deepEqual(refused(nested(33)), {
      status: 400,
      errors: { _: ['El cuerpo tiene más de 32 niveles de anidamiento.'] },
    })
    assert.equal(refused('"x"')?.status, 400)
    assert.equal(refused('{"a":')?.status, 400)
  })
})

test.group('echoedName', () => {
  test('64 characters kept as is; 65 cut to 64 and …; a surrogate pair never split', ({
    assert,
  }) => {
    assert.equal(ECHOED_NAME_CHARS, 64)
    assert.equal(echoedName('a'.repeat(64)), 'a'.repeat(64))
    assert.equal(echoedName('a'.repeat(65)), `${'a'.repeat(64)}…`)
    assert.equal(echoedName(`${'a'.repeat(63)}😀b`), `${'a'.repeat(63)}…`)
  })
})
