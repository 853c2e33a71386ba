import { test } from '@japa/runner'
import { Webhook } from 'standardwebhooks'
import { newMessageId, openSecret, sealSecret, signWebhook } from '#core/outbound/signer'

test.group('Standard Webhooks signer', () => {
  test('a free-string Secret verifies with standardwebhooks in raw format', ({ assert }) => {
    const secret = 'a-plain-secret-of-the-app-1234'
    const body = JSON.stringify({
      Tipo: 'InvitacionAceptada',
      Momento: '2026-01-01T00:00:00-03:00',
    })
    const headers = signWebhook({ id: newMessageId(), body, secret })
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/)
    assert.match(headers['webhook-id'], /^msg_[0-9a-f]{32}$/)
    assert.deepEqual(new Webhook(secret, { format: 'raw' }).verify(body, headers), JSON.parse(body))
    assert.deepEqual(
      new Webhook(new TextEncoder().encode(secret), { format: 'raw' }).verify(body, headers),
      JSON.parse(body)
    )
  })

  test('a non-ASCII Secret signs with its UTF-8 bytes', ({ assert }) => {
    const secret = 'contraseña-ñandú-€-segura'
    const body = '{"a":"á"}'
    const headers = signWebhook({ id: 'msg_1', body: Buffer.from(body), secret })
    assert.deepEqual(
      new Webhook(new TextEncoder().encode(secret), { format: 'raw' }).verify(body, headers),
      { a: 'á' }
    )
  })

  test('a whsec_ Secret verifies with the default standardwebhooks constructor', ({ assert }) => {
    const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')
    const body = '{"x":1}'
    const headers = signWebhook({ id: 'msg_2', body, secret })
    assert.deepEqual(new Webhook(secret).verify(body, headers), { x: 1 })
  })

  test('a changed body, id or timestamp fails verification', ({ assert }) => {
    const secret = 'another-secret-0123456789'
    const webhook = new Webhook(secret, { format: 'raw' })
    const headers = signWebhook({ id: 'msg_3', body: '{"x":1}', secret })
    assert.throws(() => webhook.verify('{"x":2}', headers), /No matching signature/)
    assert.throws(
      () => webhook.verify('{"x":1}', { ...headers, 'webhook-id': 'msg_4' }),
      /No matching signature/
    )
    const old = signWebhook({
      id: 'msg_3',
      body: '{"x":1}',
      secret,
      timestamp: new Date(Date.now() - 3600_000),
    })
    assert.throws(() => webhook.verify('{"x":1}', old), /too old/)
  })

  test('secrets are stored encrypted and read back; unreadable values give null', ({ assert }) => {
    const sealed = sealSecret('my-secret-value-123')
    assert.notInclude(sealed, 'my-secret-value-123')
    assert.equal(openSecret(sealed), 'my-secret-value-123')
    assert.isNull(openSecret('not-encrypted'))
    assert.isNull(openSecret(null))
  })
})
