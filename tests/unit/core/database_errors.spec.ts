import { test } from '@japa/runner'
import {
  isDatabaseUnavailable,
  retryOnUniqueViolation,
  uniqueViolation,
} from '#core/database/errors'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

test.group('Database errors: unavailable', () => {
  test('connection loss, shutdown, refusals and pool timeouts are unavailable', ({ assert }) => {
    const unavailable = [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P02'),
      withCode('57P03', 'the database system is starting up'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('08006'),
      withCode('08P01'),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
        name: 'KnexTimeoutError',
      }),
      new Error('Connection terminated unexpectedly'),
      new Error('select 1 - Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Transaction query already complete, run with DEBUG=knex:tx for more info'),
      new Error('wrapped', { cause: withCode('57P01') }),
    ]
    for (const error of unavailable)
      assert.isTrue(isDatabaseUnavailable(error), `${(error as any).code} ${error.message}`)
  })

  test('data and programming errors are not', ({ assert }) => {
    const others = [
      withCode('23505', 'duplicate key'),
      withCode('22P02', 'invalid input syntax for type integer'),
      withCode('42P01', 'relation does not exist'),
      withCode('40P01', 'deadlock detected'),
      new Error('boom'),
      null,
      undefined,
      'ECONNREFUSED',
    ]
    for (const error of others)
      assert.isFalse(isDatabaseUnavailable(error), String((error as any)?.message ?? error))
  })
})

test.group('Database errors: unique violations', () => {
  test('the constraint of a 23505, else null', ({ assert }) => {
    assert.equal(
      uniqueViolation(Object.assign(withCode('23505'), { constraint: 'operators_email_unique' })),
      'operators_email_unique'
    )
    assert.isNull(uniqueViolation(withCode('23503')))
    assert.isNull(uniqueViolation(new Error('x')))
  })

  test('a lost race on a listed constraint is replayed once; others are thrown', async ({
    assert,
  }) => {
    const violation = Object.assign(withCode('23505'), { constraint: 'a_unique' })
    let runs = 0
    const replayed = await retryOnUniqueViolation(['a_unique'], async () => {
      runs += 1
      if (runs === 1) throw violation
      return 'sequential answer'
    })
    assert.equal(replayed, 'sequential answer')
    assert.equal(runs, 2)

    runs = 0
    await assert.rejects(() =>
      retryOnUniqueViolation(['a_unique'], async () => {
        runs += 1
        throw Object.assign(withCode('23505'), { constraint: 'other_unique' })
      })
    )
    assert.equal(runs, 1)
  })
})
