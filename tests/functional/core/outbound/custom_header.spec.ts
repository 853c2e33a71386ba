import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import { errors as vineErrors } from '@vinejs/vine'
import { customHeader, safeHeaders } from '#core/outbound/custom_header'

const validator = vine.create({ HeaderCustom01: customHeader.nullable().optional() })

async function errorsOf(header: unknown): Promise<Record<string, string[]> | null> {
  try {
    await validator.validate({ HeaderCustom01: header })
    return null
  } catch (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    const out: Record<string, string[]> = {}
    for (const message of error.messages as Array<{ field: string; message: string }>) {
      ;(out[message.field] ??= []).push(message.message)
    }
    return out
  }
}

/** `Errors` keys are dotted wire paths: look them up as plain keys. */
function hasError(
  assert: any,
  errors: Record<string, string[]> | null,
  key: string,
  message?: string
) {
  assert.isArray(errors?.[key], message ?? key)
}

test.group('Custom header schema', () => {
  test('accepts a token name of 1 and of 64 characters, refuses 0 and 65', async ({ assert }) => {
    assert.isNull(await errorsOf({ Name: 'X', Value: 'v' }))
    assert.isNull(await errorsOf({ Name: 'X'.repeat(64), Value: 'v' }))
    hasError(assert, await errorsOf({ Name: '', Value: 'v' }), 'HeaderCustom01.Name')
    hasError(assert, await errorsOf({ Name: 'X'.repeat(65), Value: 'v' }), 'HeaderCustom01.Name')
  })

  test('refuses names that are not RFC 7230 tokens', async ({ assert }) => {
    for (const name of ['X Api', 'X:Api', 'X-Ápi', 'X\r\nInjected', '(x)']) {
      hasError(assert, await errorsOf({ Name: name, Value: 'v' }), 'HeaderCustom01.Name', name)
    }
    assert.isNull(await errorsOf({ Name: "X-Api_Key.v2~!#$%&'*+^`|", Value: 'v' }))
  })

  test('refuses names the service sets itself, in any case', async ({ assert }) => {
    for (const name of [
      'Host',
      'content-length',
      'Content-Type',
      'Transfer-Encoding',
      'CONNECTION',
      'User-Agent',
      'webhook-id',
      'Webhook-Signature',
      'webhook-timestamp',
      'webhook-anything',
    ]) {
      const result = await errorsOf({ Name: name, Value: 'v' })
      assert.deepEqual(
        result,
        { 'HeaderCustom01.Name': ['El encabezado Name está reservado por el servicio.'] },
        name
      )
    }
    assert.isNull(await errorsOf({ Name: 'Authorization', Value: 'Bearer abc' }))
    assert.isNull(await errorsOf({ Name: 'Webhook', Value: 'not a prefix match' }))
  })

  test('accepts a value of 0 and of 1024 characters, refuses 1025', async ({ assert }) => {
    assert.isNull(await errorsOf({ Name: 'X', Value: '' }))
    assert.isNull(await errorsOf({ Name: 'X', Value: 'v'.repeat(1024) }))
    hasError(assert, await errorsOf({ Name: 'X', Value: 'v'.repeat(1025) }), 'HeaderCustom01.Value')
  })

  test('refuses CR, LF, NUL and other control characters in values; tab and Latin-1 pass', async ({
    assert,
  }) => {
    for (const value of [
      'a\rb',
      'a\nb',
      'a\r\nX-Injected: 1',
      'a\u0000b',
      'a\u0007b',
      'a\u007fb',
      'euro €',
    ]) {
      hasError(
        assert,
        await errorsOf({ Name: 'X', Value: value }),
        'HeaderCustom01.Value',
        JSON.stringify(value)
      )
    }
    assert.isNull(await errorsOf({ Name: 'X', Value: 'a\tb ñandú' }))
  })

  test('null and absent headers pass; other shapes are refused', async ({ assert }) => {
    assert.isNull(await errorsOf(null))
    assert.isNull(await errorsOf(undefined))
    hasError(assert, await errorsOf('X: y'), 'HeaderCustom01')
    hasError(assert, await errorsOf({ Name: 'X' }), 'HeaderCustom01.Value')
  })

  test('safeHeaders keeps valid stored headers and drops nulls and unsafe ones', ({ assert }) => {
    assert.deepEqual(
      safeHeaders([
        { name: 'X-One', value: '1' },
        null,
        { Name: 'X-Two', Value: '2' },
        { name: 'Host', value: 'evil' },
        { name: 'X-Bad', value: 'a\r\nb' },
        undefined,
      ]),
      { 'x-one': '1', 'x-two': '2' }
    )
  })
})
