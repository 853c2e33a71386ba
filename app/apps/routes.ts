/*
 * App-level event subscriptions (docs/design.md §6: `/v3/appnotificaciones`).
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'

const AppNotificationsController = () => import('#apps/controllers/app_notifications_controller')
const EventsController = () => import('#apps/controllers/events_controller')

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
})
