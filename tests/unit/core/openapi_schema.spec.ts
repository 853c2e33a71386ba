/*
 * The wire shapes (app/core/openapi/schema.ts): a transformer typed with
 * `Wire<typeof Shape>` fails `npm run typecheck` when it drifts from its schema
 * (each @ts-expect-error below must stay an error), and named shapes become
 * `$ref`s of the document.
 */
import { test } from '@japa/runner'
import { named, nullableObject, object, refsOf, type Wire } from '#core/openapi/schema'

const Inner = named(
  'InnerForTest',
  nullableObject({ Name: { type: 'string' }, Size: { type: ['integer', 'null'] } })
)
const Shape = object({
  Title: { type: 'string' },
  Kind: { type: 'string', enum: ['A', 'B'] },
  Tags: { type: 'array', items: { type: 'string' } },
  Inner,
})

test.group('OpenAPI wire shapes', () => {
  test('a value that drifts from its schema does not type-check', ({ assert }) => {
    const valid: Wire<typeof Shape> = { Title: 't', Kind: 'A', Tags: [], Inner: null }
    // @ts-expect-error a property of the schema is missing
    const missing: Wire<typeof Shape> = { Title: 't', Kind: 'A', Tags: [] }
    // @ts-expect-error a property the schema does not declare
    const extra: Wire<typeof Shape> = { Title: 't', Kind: 'A', Tags: [], Inner: null, More: 1 }
    // @ts-expect-error a value outside the enum
    const outside: Wire<typeof Shape> = { Title: 't', Kind: 'C', Tags: [], Inner: null }
    const nested: Wire<typeof Shape> = {
      Title: 't',
      Kind: 'B',
      Tags: ['x'],
      // @ts-expect-error a nested property of the wrong type
      Inner: { Name: 'n', Size: 'big' },
    }
    assert.deepEqual(Shape.required, ['Title', 'Kind', 'Tags', 'Inner'])
    assert.lengthOf([valid, missing, extra, outside, nested], 5)
  })

  test('named shapes become $refs collected under components', ({ assert }) => {
    const components: Record<string, unknown> = {}
    const resolved = refsOf({ schema: Shape }, components) as any
    assert.deepEqual(resolved.schema.properties.Inner, {
      $ref: '#/components/schemas/InnerForTest',
    })
    assert.deepEqual(components.InnerForTest, {
      type: ['object', 'null'],
      required: ['Name', 'Size'],
      properties: { Name: { type: 'string' }, Size: { type: ['integer', 'null'] } },
    })
  })
})
