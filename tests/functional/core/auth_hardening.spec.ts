/*
 * Authentication without side effects and under a per-address limit
 * (docs/design.md §13): strict `Authorization: Bearer <token>` parsing, no write
 * for a failed verification, 401s counted per client address → 429.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createCaller } from '#tests/helpers/apps'
import { raw } from '#tests/helpers/http'
import { settings } from '#core/settings'

const configuredLimit = settings.authFailuresPerMinute
let addresses = 0
/** A fresh client address per test (loopback is a trusted proxy, so X-Forwarded-For sets it). */
const freshAddress = () => `203.0.113.${++addresses}`

const b64 = (value: string) => Buffer.from(value).toString('base64url')

function get(authorization: string | null, address: string) {
  const headers: Record<string, string> = { 'X-Forwarded-For': address }
  if (authorization !== null) headers.Authorization = authorization
  return raw('/v3', { headers })
}

async function assertUnauthorized(assert: any, response: Response, label: string) {
  assert.equal(response.status, 401, label)
  assert.match(response.headers.get('content-type')!, /^application\/problem\+json/, label)
  assert.match(response.headers.get('www-authenticate')!, /^Bearer/, label)
  const body = (await response.json()) as any
  assert.equal(body.Status, 401, label)
}

test.group('Authentication: strict Authorization header', () => {
  test('malformed headers and token ids out of range → 401 (never 500)', async ({ assert }) => {
    const { token } = await createCaller()
    const secret = token.split('.')[1]
    const cases = [
      `Bearer ${token} junk`,
      `Bearer ${token},x`,
      `Bearer`,
      `Bearer `,
      `Basic ${token}`,
      `Token ${token}`,
      `${token}`,
      `Bearer dla_YWJj.c2VjcmV0c2VjcmV0`, // id "abc"
      `Bearer dla_${b64('9223372036854775808')}.${secret}`, // beyond int8
      `Bearer dla_${b64('2147483648')}.${secret}`, // beyond the integer column
      `Bearer dla_${b64('99999999999999999999999')}.${secret}`,
      `Bearer dla_${b64('0')}.${secret}`,
      `Bearer dla_${b64('-1')}.${secret}`,
      `Bearer dla_${b64('1e3')}.${secret}`,
      `Bearer dla_${b64(' 1')}.${secret}`,
      `Bearer dla_${b64('1')}.`,
      `Bearer dla_.${secret}`,
      `Bearer dla_${b64('1')}.${secret}=`, // padding that base64url does not carry
      `Bearer dla_${b64('1')}.${secret}x`, // does not round-trip
      `Bearer dla_${b64('1')}`,
      `Bearer oat_${token.slice(4)}`,
    ]
    // Each case from its own address: this test is about parsing, not the failure limit.
    for (const header of cases)
      await assertUnauthorized(assert, await get(header, freshAddress()), header)
  })

  test('the well-formed variants pass: scheme in any case, one or more spaces', async ({
    assert,
  }) => {
    const { token } = await createCaller()
    const address = freshAddress()
    for (const header of [
      `Bearer ${token}`,
      `bearer ${token}`,
      `BEARER ${token}`,
      `Bearer   ${token}`,
    ]) {
      assert.equal((await get(header, address)).status, 200, header)
    }
  })
})

test.group('Authentication: no side effects on failure', () => {
  test('a wrong secret for an existing token id writes nothing; the right one records its use', async ({
    assert,
  }) => {
    const { app, token } = await createCaller()
    const address = freshAddress()
    const row = () => db.from('app_tokens').where('tokenable_id', app.id).firstOrFail()
    const before = await row()
    const [idPart, secret] = token.slice('dla_'.length).split('.')
    const wrong = `dla_${idPart}.${b64(
      Buffer.from(secret, 'base64url')
        .toString()
        .replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))
    )}`
    for (let i = 0; i < 3; i++)
      await assertUnauthorized(assert, await get(`Bearer ${wrong}`, address), wrong)
    const after = await row()
    assert.deepEqual(after, before, 'a failed verification must not write the token row')
    assert.isNull(after.last_used_at)

    assert.equal((await get(`Bearer ${token}`, address)).status, 200)
    assert.isNotNull((await row()).last_used_at, 'a verified token records its use')
  })
})

test.group('Authentication: failures per client address', (group) => {
  group.each.teardown(() => {
    settings.authFailuresPerMinute = configuredLimit
  })

  test('the limit-th failure → 401, the next → 429 with Retry-After; another address is unaffected', async ({
    assert,
  }) => {
    settings.authFailuresPerMinute = 5
    const { token } = await createCaller()
    const attacker = freshAddress()
    const bystander = freshAddress()
    for (let i = 1; i <= 5; i++) {
      const header = i % 2 ? 'Bearer dla_MQ.bm9wZQ' : null // a wrong token, or none at all
      await assertUnauthorized(assert, await get(header, attacker), `failure ${i}`)
    }
    const limited = await get('Bearer dla_MQ.bm9wZQ', attacker)
    assert.equal(limited.status, 429)
    assert.match(limited.headers.get('content-type')!, /^application\/problem\+json/)
    assert.isAbove(Number(limited.headers.get('retry-after')), 0)
    assert.isAtMost(Number(limited.headers.get('retry-after')), 60)
    assert.equal(((await limited.json()) as any).Status, 429)
    // A blocked address is not looked up at all, whatever it sends.
    assert.equal((await get(`Bearer ${token}`, attacker)).status, 429)
    // A valid token from another address is unaffected.
    assert.equal((await get(`Bearer ${token}`, bystander)).status, 200)
  })

  test('successful requests are not counted', async ({ assert }) => {
    settings.authFailuresPerMinute = 5
    const { token } = await createCaller()
    const address = freshAddress()
    for (let i = 1; i <= 4; i++)
      await assertUnauthorized(assert, await get('Bearer dla_MQ.bm9wZQ', address), `failure ${i}`)
    for (let i = 0; i < 10; i++) assert.equal((await get(`Bearer ${token}`, address)).status, 200)
    await assertUnauthorized(assert, await get('Bearer dla_MQ.bm9wZQ', address), 'failure 5')
    assert.equal((await get('Bearer dla_MQ.bm9wZQ', address)).status, 429)
  })

  test('an address spent through another web process → 429 at its first failure here', async ({
    assert,
  }) => {
    settings.authFailuresPerMinute = 5
    const { default: limiter } = await import('@adonisjs/limiter/services/main')
    const address = freshAddress()
    // What five failures in another process leave in the shared store.
    const shared = limiter.use({ requests: 5, duration: '1 minute' })
    for (let i = 0; i < 5; i++) await shared.increment(`auth_failures_${address}`)
    const limited = await get('Bearer dla_MQ.bm9wZQ', address)
    assert.equal(limited.status, 429)
    assert.isAbove(Number(limited.headers.get('retry-after')), 0)
    // From then on this process refuses the address before any lookup.
    assert.equal((await get(null, address)).status, 429)
  })
})
