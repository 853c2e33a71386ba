import { test } from '@japa/runner'
import { ContractChecker, type ObservedResponse } from '#tests/helpers/contract'

/** A small document in the service's style: one operation, a problem range, a required header. */
const document = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/v3/cosas/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            headers: {
              'ETag': { required: true, schema: { type: 'string', pattern: '^"' } },
              'X-Count': { schema: { type: 'integer', minimum: 0 } },
            },
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Cosa' } },
            },
          },
          '304': { description: 'igual', headers: { ETag: { schema: { type: 'string' } } } },
          '4XX': { $ref: '#/components/responses/Problem' },
        },
      },
    },
    '/v3/cosas/nueva': { post: { responses: { '204': { description: 'creada' } } } },
  },
  components: {
    responses: {
      Problem: {
        description: 'problema',
        content: {
          'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        },
      },
    },
    schemas: {
      Cosa: {
        type: 'object',
        required: ['Id', 'Alta'],
        properties: { Id: { type: 'integer' }, Alta: { type: 'string', format: 'date-time' } },
        additionalProperties: false,
      },
      Problem: {
        type: 'object',
        required: ['title', 'status'],
        properties: { title: { type: 'string' }, status: { type: 'integer' } },
      },
    },
  },
}

function observed(
  overrides: Partial<ObservedResponse> & { json?: unknown } = {}
): ObservedResponse {
  const { json, ...rest } = overrides
  return {
    method: 'GET',
    path: '/v3/cosas/7',
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'etag': '"r1"' },
    body: Buffer.from(JSON.stringify(json ?? { Id: 7, Alta: '2026-01-01T00:00:00Z' })),
    ...rest,
  }
}

test.group('Response contract checker', () => {
  test('accepts a response that matches the document', ({ assert }) => {
    const checker = new ContractChecker(document)
    assert.deepEqual(checker.errors(observed()), [])
    assert.deepEqual(
      checker.errors(observed({ headers: { ...observed().headers, 'x-count': '3' } })),
      []
    )
    assert.deepEqual(checker.errors(observed({ method: 'HEAD', body: Buffer.alloc(0) })), [])
    assert.deepEqual(
      checker.errors(observed({ status: 304, headers: { etag: '"r1"' }, body: Buffer.alloc(0) })),
      []
    )
    // A status range through a $ref'd response.
    assert.deepEqual(
      checker.errors(
        observed({
          status: 404,
          headers: { 'content-type': 'application/problem+json' },
          json: { title: 'No existe', status: 404 },
        })
      ),
      []
    )
    // The literal path wins over the template.
    assert.deepEqual(
      checker.errors(
        observed({
          method: 'POST',
          path: '/v3/cosas/nueva',
          status: 204,
          headers: {},
          body: Buffer.alloc(0),
        })
      ),
      []
    )
  })

  test('fails a body that breaks its schema', ({ assert }) => {
    const checker = new ContractChecker(document)
    const [error] = checker.errors(observed({ json: { Id: 'siete', Alta: 'ayer', Extra: 1 } }))
    assert.match(error, /^body \(application\/json\): /)
    assert.include(error, '/Id must be integer')
    assert.include(error, '/Alta must match format "date-time"')
    assert.include(error, 'must NOT have additional properties')
    assert.deepEqual(checker.errors(observed({ body: Buffer.from('{nope') })), [
      'the body is not valid JSON',
    ])
  })

  test('fails an undeclared status, media type or operation', ({ assert }) => {
    const checker = new ContractChecker(document)
    assert.deepEqual(checker.errors(observed({ status: 201 })), [
      'status 201 is not declared (declared: 200, 304, 4XX)',
    ])
    assert.match(
      checker.errors(observed({ headers: { 'content-type': 'text/html', 'etag': '"r1"' } }))[0],
      /^Content-Type text\/html is not declared/
    )
    assert.deepEqual(checker.errors(observed({ method: 'DELETE' })), [
      'DELETE /v3/cosas/7 is not documented',
    ])
    assert.deepEqual(checker.errors(observed({ path: '/v3/otras/7' })), [
      'GET /v3/otras/7 is not documented',
    ])
    // A body where the document declares none.
    assert.match(
      checker.errors(observed({ method: 'POST', path: '/v3/cosas/nueva', status: 204 }))[0],
      /declares no content/
    )
  })

  test('fails a missing required header and a malformed declared one', ({ assert }) => {
    const checker = new ContractChecker(document)
    assert.deepEqual(
      checker.errors(observed({ headers: { 'content-type': 'application/json' } })),
      ['required header ETag is missing']
    )
    assert.match(
      checker.errors(observed({ headers: { ...observed().headers, etag: 'r1' } }))[0],
      /^header ETag: \/ must match pattern/
    )
    assert.match(
      checker.errors(observed({ headers: { ...observed().headers, 'x-count': '-1' } }))[0],
      /^header X-Count: \/ must be >= 0/
    )
  })
})
