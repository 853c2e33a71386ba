import { defineConfig } from '@adonisjs/shield'
import { settings } from '#core/settings'

/**
 * Shield runs only on the buyers' HTML routes (app/buyers/routes.ts), never
 * on `/v3`: API clients carry no cookies. Styles come from the service
 * itself; photos are served under PUBLIC_URL (which may differ from the
 * host the page was opened with) or from an S3-compatible bucket (`https:`).
 */
const shieldConfig = defineConfig({
  csp: {
    enabled: true,
    directives: {
      defaultSrc: [`'none'`],
      styleSrc: [`'self'`],
      imgSrc: [`'self'`, new URL(settings.publicUrl).origin, 'https:', 'data:'],
      formAction: [`'self'`],
      baseUri: [`'none'`],
      frameAncestors: [`'none'`],
    },
    reportOnly: false,
  },
  csrf: {
    enabled: true,
    exceptRoutes: [],
    enableXsrfCookie: false,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: settings.publicUrl.startsWith('https:'), maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})

export default shieldConfig
