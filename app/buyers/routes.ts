/*
 * Buyers' side: public listing pages, their inquiry forms, catalogue model
 * pages (HTML, no credentials), and the visits report of the API.
 * Sessions and Shield (CSRF, CSP, frame and sniffing guards) run only on the
 * HTML routes: `/v3` clients carry no cookies.
 */
import router from '@adonisjs/core/services/router'
import limiter from '@adonisjs/limiter/services/main'
import { apiRoutes } from '#core/http/api'
import { mountViews } from '#buyers/site'
import { FORM_LIMIT } from '#buyers/limits'
import { htmlErrorPages } from '#core/http/error_pages'
import { renderError } from '#buyers/http/html'

mountViews()
// Errors raised before this module's middleware (the input gate) get its pages too.
htmlErrorPages(['/autos/', '/modelos/'], renderError)

const AssetsController = () => import('#buyers/controllers/assets_controller')
const ListingPageController = () => import('#buyers/controllers/listing_page_controller')
const ModelPageController = () => import('#buyers/controllers/model_page_controller')
const VisitsController = () => import('#buyers/controllers/visits_controller')
const PrivacyController = () => import('#buyers/controllers/privacy_controller')
const PrivacyPageController = () => import('#buyers/controllers/privacy_page_controller')

const web = router.named({
  htmlPages: () => import('#buyers/middleware/html_pages_middleware'),
  session: () => import('@adonisjs/session/session_middleware'),
  shield: () => import('@adonisjs/shield/shield_middleware'),
  // After session and shield: a repeated form replays the first answer (docs/design.md §14).
  formOnce: () => import('#buyers/middleware/form_idempotency_middleware'),
})

const formThrottle = limiter.define('buyers_form', (ctx) =>
  limiter
    .allowRequests(FORM_LIMIT.requests)
    .every(FORM_LIMIT.window)
    .usingKey(`inquiry_form_${ctx.request.ip()}`)
)

router.get('/recursos/compradores.css', [AssetsController, 'stylesheet']).as('buyers.stylesheet')
// The notice of docs/design.md §16: who receives a buyer's data, why, the rights and how to use them.
router
  .get('/privacidad', [PrivacyPageController, 'show'])
  .as('buyers.privacy')
  .use([web.htmlPages()])

router
  .group(() => {
    router.get('/autos/:slug', [ListingPageController, 'show']).as('buyers.listing')
    router
      .post('/autos/:slug/consultas', [ListingPageController, 'inquire'])
      .as('buyers.listing.inquire')
      .use([formThrottle, web.formOnce()])
    router
      .get('/autos/:slug/consulta-enviada', [ListingPageController, 'sent'])
      .as('buyers.listing.sent')
    router
      .get('/modelos/:id', [ModelPageController, 'show'])
      .as('buyers.model')
      .where('id', router.matchers.number())
    router
      .post('/modelos/:id/consultas', [ModelPageController, 'inquire'])
      .as('buyers.model.inquire')
      .where('id', router.matchers.number())
      .use([formThrottle, web.formOnce()])
    router
      .get('/modelos/:id/consulta-enviada', [ModelPageController, 'sent'])
      .as('buyers.model.sent')
      .where('id', router.matchers.number())
  })
  .use([web.htmlPages(), web.session(), web.shield()])

apiRoutes(() => {
  router.get('/visitas/:adminmail', [VisitsController, 'index']).as('buyers.visits.index')
  router.get('/privacidad/:adminmail', [PrivacyController, 'show']).as('buyers.privacy.show')
  router.put('/privacidad/:adminmail', [PrivacyController, 'update']).as('buyers.privacy.update')
  router
    .get('/privacidad/:adminmail/solicitudes', [PrivacyController, 'index'])
    .as('buyers.privacy.requests.index')
  router
    .post('/privacidad/:adminmail/solicitudes', [PrivacyController, 'store'])
    .as('buyers.privacy.requests.store')
  router
    .get('/privacidad/:adminmail/solicitudes/:id', [PrivacyController, 'showRequest'])
    .as('buyers.privacy.requests.show')
  router
    .get('/privacidad/:adminmail/solicitudes/:id/datos', [PrivacyController, 'data'])
    .as('buyers.privacy.requests.data')
})
