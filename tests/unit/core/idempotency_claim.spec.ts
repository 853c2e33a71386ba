/*
 * Idempotency.claim over a fake store (docs/design.md §14): what a request
 * with a key gets, given what became of the key's first use.
 */
import { test } from '@japa/runner'
import Idempotency, { IN_FLIGHT_SECONDS, RETENTION_HOURS } from '#core/http/idempotency'
import type IdempotencyStore from '#core/stores/idempotency_store'
import type { IdempotencyRow } from '#core/stores/idempotency_store'

const scope = { appId: 1, method: 'POST', path: '/v3/sucursales/a@b.ar', key: 'k-1' }

class FakeKeys implements Pick<IdempotencyStore, 'take' | 'find' | 'prune'> {
  takes: unknown[] = []
  constructor(
    private tokens: (string | null)[],
    private rows: (IdempotencyRow | null)[] = []
  ) {}

  async take(_scope: typeof scope, _hash: string, limits: object) {
    this.takes.push(limits)
    return this.tokens.shift() ?? null
  }

  async find() {
    return this.rows.shift() ?? null
  }

  async prune(hours: number) {
    return hours
  }
}

const row = (extra: Partial<IdempotencyRow> = {}): IdempotencyRow => ({
  fingerprint: 'h1',
  responseStatus: null,
  responseHeaders: null,
  responseBody: null,
  responseExtra: null,
  ...extra,
})

const keys = (store: FakeKeys) => new Idempotency(store as unknown as IdempotencyStore)

test.group('Idempotency keys: a claim', () => {
  test('a free, expired or lapsed key is taken: the request owns it', async ({ assert }) => {
    const store = new FakeKeys(['2026-05-01 10:00:00+00'])
    assert.deepEqual(await keys(store).claim(scope, 'h1'), {
      kind: 'owner',
      token: '2026-05-01 10:00:00+00',
    })
    assert.deepEqual(store.takes, [
      { inFlightSeconds: IN_FLIGHT_SECONDS, retentionHours: RETENTION_HOURS },
    ])
  })

  test('held with another body: mismatch; without a response yet: in flight', async ({
    assert,
  }) => {
    assert.deepEqual(await keys(new FakeKeys([null], [row()])).claim(scope, 'h2'), {
      kind: 'mismatch',
    })
    assert.deepEqual(await keys(new FakeKeys([null], [row()])).claim(scope, 'h1'), {
      kind: 'in-flight',
    })
  })

  test('completed with the same body: the response is replayed', async ({ assert }) => {
    const body = Buffer.from('{"Id":1}')
    const completed = row({
      responseStatus: 201,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: body,
      responseExtra: { flash: 'ok' },
    })
    assert.deepEqual(await keys(new FakeKeys([null], [completed])).claim(scope, 'h1'), {
      kind: 'replay',
      response: {
        status: 201,
        headers: { 'content-type': 'application/json' },
        body,
        extra: { flash: 'ok' },
      },
    })
  })

  test('a row gone between take and read is taken again, twice at most', async ({ assert }) => {
    const again = new FakeKeys([null, 'tok'], [null])
    assert.deepEqual(await keys(again).claim(scope, 'h1'), { kind: 'owner', token: 'tok' })
    const never = new FakeKeys([null, null], [null, null])
    assert.deepEqual(await keys(never).claim(scope, 'h1'), { kind: 'in-flight' })
    assert.lengthOf(never.takes, 2)
  })

  test('pruning deletes keys past the retention', async ({ assert }) => {
    assert.equal(await keys(new FakeKeys([])).prune(), RETENTION_HOURS)
  })
})
