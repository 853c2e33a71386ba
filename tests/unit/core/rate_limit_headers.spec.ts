import { test } from '@japa/runner'
import { rateLimitHeaders, tooManyHeaders } from '#core/http/per_minute_limiter'

test.group('RateLimit headers (IETF httpapi draft) of a limiter answer', () => {
  test('policy, what is left and when it renews; another window when given', ({ assert }) => {
    assert.deepEqual(
      rateLimitHeaders('aplicacion', { limit: 1200, remaining: 42, availableIn: 17 }),
      {
        'X-RateLimit-Limit': '1200',
        'X-RateLimit-Remaining': '42',
        'RateLimit-Policy': '"aplicacion";q=1200;w=60',
        'RateLimit': '"aplicacion";r=42;t=17',
      }
    )
    assert.equal(
      rateLimitHeaders('formulario', { limit: 10, remaining: 3, availableIn: 500 }, 600)[
        'RateLimit-Policy'
      ],
      '"formulario";q=10;w=600'
    )
  })

  test('a spent limit: r=0 (never negative); Retry-After at least 1 s, equal to t', ({
    assert,
  }) => {
    const spent = tooManyHeaders('autenticacion', { limit: 30, remaining: -3, availableIn: 0 })
    assert.equal(spent['RateLimit'], '"autenticacion";r=0;t=1')
    assert.equal(spent['Retry-After'], '1')
    assert.equal(spent['X-RateLimit-Remaining'], '0')
    const later = tooManyHeaders('autenticacion', { limit: 30, remaining: 0, availableIn: 59 })
    assert.equal(later['Retry-After'], '59')
    assert.equal(later['RateLimit'], '"autenticacion";r=0;t=59')
  })
})
