import { defineConfig, stores } from '@adonisjs/session'
import { settings } from '#core/settings'

/**
 * Sessions exist only for the buyers' HTML pages (their CSRF secret); the
 * `/v3` API never starts one. The cookie store keeps the service stateless.
 */
const sessionConfig = defineConfig({
  enabled: true,
  cookieName: 'dla-session',
  clearWithBrowser: false,
  // A buyer may read a listing for a while before sending the form.
  age: '24h',
  cookie: {
    path: '/',
    httpOnly: true,
    secure: settings.publicUrl.startsWith('https:'),
    sameSite: 'lax',
  },
  store: 'cookie',
  stores: {
    cookie: stores.cookie(),
  },
})

export default sessionConfig
