import { test } from '@japa/runner'
import { createHmac } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { newMessageId, signWebhook, signingKey } from '#core/outbound/signer'

const body = JSON.stringify({ Tipo: 'PublicacionConsultada', n: 1 })

test.group('Webhook signer (Standard Webhooks)', () => {
  test('a whsec_ secret signs with its decoded bytes from 16 bytes up', ({ assert }) => {
    const sixteen = Buffer.alloc(16, 7)
    const fifteen = Buffer.alloc(15, 7)
    assert.deepEqual(signingKey(`whsec_${sixteen.toString('base64')}`), sixteen)
    // Too short to be a key: the whole string is the secret.
    const short = `whsec_${fifteen.toString('base64')}`
    assert.deepEqual(signingKey(short), Buffer.from(short, 'utf8'))
    // Not base64: the whole string as well.
    assert.deepEqual(signingKey('whsec_no-es-base64!'), Buffer.from('whsec_no-es-base64!'))
    assert.deepEqual(signingKey('secreto-libre'), Buffer.from('secreto-libre'))
  })

  test('the Standard Webhooks library verifies what is signed, with either kind of secret', ({
    assert,
  }) => {
    const standard = `whsec_${Buffer.alloc(24, 3).toString('base64')}`
    const headers = signWebhook({ id: 'msg_1', body, secret: standard })
    assert.deepEqual(new Webhook(standard).verify(body, headers), JSON.parse(body))

    const free = 'una clave con ñ'
    const freeHeaders = signWebhook({ id: 'msg_2', body, secret: free })
    const verifier = new Webhook(new TextEncoder().encode(free) as any, { format: 'raw' })
    assert.deepEqual(verifier.verify(body, freeHeaders), JSON.parse(body))
    // One byte changed in the body, or another id, fails.
    assert.throws(() => verifier.verify(body.replace('1', '2'), freeHeaders))
    assert.throws(() => verifier.verify(body, { ...freeHeaders, 'webhook-id': 'msg_3' }))
  })

  test('timestamps are whole Unix seconds, rounded down; a Buffer body signs like its text', ({
    assert,
  }) => {
    const at = signWebhook({ id: 'msg_1', body, secret: 's', timestamp: 1_700_000_000.999 })
    assert.equal(at['webhook-timestamp'], '1700000000')
    const date = signWebhook({
      id: 'msg_1',
      body,
      secret: 's',
      timestamp: new Date(1_700_000_000_999),
    })
    assert.deepEqual(date, at)
    assert.deepEqual(
      signWebhook({ id: 'msg_1', body: Buffer.from(body), secret: 's', timestamp: 1_700_000_000 }),
      at
    )
    const expected = createHmac('sha256', 's').update(`msg_1.1700000000.${body}`).digest('base64')
    assert.equal(at['webhook-signature'], `v1,${expected}`)
    const now = Math.floor(Date.now() / 1000)
    const current = Number(signWebhook({ id: 'msg_1', body, secret: 's' })['webhook-timestamp'])
    assert.isAtLeast(current, now)
    assert.isAtMost(current, now + 1)
  })

  test('message ids are msg_ and 32 hex digits, new each time', ({ assert }) => {
    const [a, b] = [newMessageId(), newMessageId()]
    assert.match(a, /^msg_[0-9a-f]{32}$/)
    assert.notEqual(a, b)
  })
})
