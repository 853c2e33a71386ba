/*
 * App-level event subscriptions (docs/design.md §6: `/v3/appnotificaciones`),
 * the event history, and the app's own credentials (§18).
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'

const AppNotificationsController = () => import('#apps/controllers/app_notifications_controller')
const EventsController = () => import('#apps/controllers/events_controller')
const CredentialsController = () => import('#apps/controllers/credentials_controller')
const ApplicationController = () => import('#apps/controllers/application_controller')

apiRoutes(() => {
  router
    .get('/appnotificaciones', [AppNotificationsController, 'index'])
    .as('appnotificaciones.index')
  router
    .get('/appnotificaciones/:topic', [AppNotificationsController, 'show'])
    .as('appnotificaciones.show')
  router
    .post('/appnotificaciones/:topic', [AppNotificationsController, 'store'])
    .as('appnotificaciones.store')
  router
    .put('/appnotificaciones/:topic', [AppNotificationsController, 'update'])
    .as('appnotificaciones.update')
  router
    .post('/appnotificaciones/:topic/prueba', [AppNotificationsController, 'test'])
    .as('appnotificaciones.test')
  router.get('/eventos', [EventsController, 'index']).as('eventos.index')
  router.get('/aplicacion', [ApplicationController, 'show']).as('aplicacion.show')
})

apiRoutes(() => {
  router.get('/credenciales', [CredentialsController, 'index']).as('credenciales.index')
  router.get('/credenciales/:id', [CredentialsController, 'show']).as('credenciales.show')
})

// A new token's secret must never be stored, so this POST takes no Idempotency-Key
// (a retry issues another token; the first shows in the list and can be revoked).
apiRoutes(
  () => {
    router.post('/credenciales', [CredentialsController, 'store']).as('credenciales.store')
  },
  { idempotent: false }
)
