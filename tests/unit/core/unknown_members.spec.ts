/*
 * The unknown-members rule (docs/design.md §19) on hand-written schemas: paths
 * at every depth, $ref and anyOf branches, open maps, and a PUT's own
 * representation accepted beside its request schema.
 */
import { test } from '@japa/runner'
import { unknownMemberErrors } from '#core/http/unknown_members'
import { bodyMembers, compileMembers, unknownMembers } from '#core/services/body_members'

const components = {
  Valor: {
    type: 'object',
    properties: { Moneda: { type: 'string' }, Importe: { type: 'number' } },
    additionalProperties: false,
  },
  Links: { type: 'object', additionalProperties: { type: 'object' } },
  Cosa: {
    type: 'object',
    properties: {
      Precio: { $ref: '#/components/schemas/Valor' },
      _links: { $ref: '#/components/schemas/Links' },
      Estado: { type: 'string' },
    },
  },
}
const edit = {
  type: 'object',
  properties: {
    Precio: { anyOf: [{ $ref: '#/components/schemas/Valor' }, { type: 'null' }] },
    Fotos: { type: ['array', 'null'], items: { type: 'string' } },
    Datos: {
      type: 'array',
      items: {
        type: 'object',
        properties: { Nombre: { type: 'string' } },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
}
const paths = (value: unknown, schemas: object[] = [edit]) =>
  unknownMembers(value, compileMembers(schemas, components)).map((found) => found.path)

test.group('unknownMembers', () => {
  test('known members at every depth pass; type mismatches are left to the validator', ({
    assert,
  }) => {
    assert.deepEqual(
      paths({ Precio: { Moneda: 'USD', Importe: 1 }, Fotos: ['x'], Datos: [{ Nombre: 'a' }] }),
      []
    )
    assert.deepEqual(paths({ Precio: null, Fotos: { a: 1 }, Datos: 'x' }), [])
    assert.deepEqual(paths([{ precio: 1 }]), [])
  })

  test('unknown members are named by path, known ones beside them are not', ({ assert }) => {
    assert.deepEqual(
      paths({
        precio: 1,
        Precio: { Moneda: 'USD', Importe: 1, Texto: 'x' },
        Datos: [{ Nombre: 'a' }, { Nombre: 'b', x: 1 }],
        ['__proto__']: 1,
      }),
      ['precio', 'Precio.Texto', 'Datos.1.x', '__proto__']
    )
    const errors = unknownMemberErrors(
      unknownMembers({ precio: 1 }, compileMembers([edit], components))
    )
    assert.match(errors.precio[0], /¿quiso decir Precio\?/)
  })

  test('a PUT accepts its representation’s members (open maps whole), only at their own level', ({
    assert,
  }) => {
    const document = {
      components: { schemas: components },
      paths: {
        '/cosas/{id}': {
          get: {
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Cosa' } } },
              },
            },
          },
          put: { requestBody: { content: { 'application/json': { schema: edit } } } },
          patch: { requestBody: { content: { 'application/json': { schema: edit } } } },
        },
      },
    }
    const trees = bodyMembers(document)
    const put = trees.get('PUT /cosas/{id}')!
    const patch = trees.get('PATCH /cosas/{id}')!
    const representation = { Estado: 'Activa', _links: { self: { href: '/x' } }, Precio: null }
    assert.deepEqual(unknownMembers(representation, put), [])
    assert.deepEqual(
      unknownMembers({ Precio: { Moneda: 'USD', Importe: 1, Otro: 1 } }, put).map((f) => f.path),
      ['Precio.Otro']
    )
    assert.deepEqual(
      unknownMembers(representation, patch).map((f) => f.path),
      ['Estado', '_links']
    )
  })
})

test.group('Unknown members: the 50 listed', () => {
  test('forbidden names are listed first, even behind 190 unknown members; the rest counted', ({
    assert,
  }) => {
    const found = [
      ...Array.from({ length: 190 }, (_, i) => ({ path: `Precio.x${i}` })),
      { path: '__proto__' },
      { path: 'Locacion.constructor' },
    ]
    const errors = unknownMemberErrors(found)
    const keys = Object.keys(errors)
    assert.lengthOf(keys, 51)
    assert.deepEqual(keys.slice(0, 3), ['__proto__', 'Locacion.constructor', 'Precio.x0'])
    assert.deepEqual(errors._omitidos, ['Hay 142 campos más con errores que no se listan.'])
  })

  test('50 unknown members: all listed, nothing omitted; 51: 50 and one omitted', ({ assert }) => {
    const of = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `m${i}` }))
    assert.notProperty(unknownMemberErrors(of(50)), '_omitidos')
    assert.lengthOf(Object.keys(unknownMemberErrors(of(50))), 50)
    const over = unknownMemberErrors(of(51))
    assert.lengthOf(Object.keys(over), 51)
    assert.deepEqual(over._omitidos, ['Hay 1 campo más con errores que no se lista.'])
  })
})
