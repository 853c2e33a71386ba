import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { Secret } from '@adonisjs/core/helpers'
import proxyAddr from 'proxy-addr'
import { defineConfig } from '@adonisjs/core/http'
import { settings } from '#core/settings'
import { onBadUrl } from '#core/http/client_errors'

/**
 * The app key encrypts cookies and signed values. The newcomer setup has no
 * .env, so a fixed development key is used outside production.
 */
export const appKey = new Secret(
  env.get('APP_KEY') ??
    (app.inProduction ? missingKey() : 'dev-only-key-change-me-0123456789abcdef')
)

function missingKey(): never {
  throw new Error('APP_KEY is required in production')
}

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: true,
  // Only these proxies may set X-Forwarded-For (proxy-addr syntax): a trusted
  // client address keeps per-IP limits and visit counts honest.
  trustProxy: proxyAddr.compile(
    (env.get('TRUST_PROXY') ?? 'loopback').split(',').map((entry) => entry.trim())
  ),
  etag: false,
  // A path whose percent-encoding is not UTF-8 never reaches routing: a problem document answers it.
  onBadUrl,
  jsonpCallbackName: 'callback',
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: settings.publicUrl.startsWith('https:'),
    sameSite: 'lax',
  },
})
