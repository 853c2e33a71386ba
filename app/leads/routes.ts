/*
 * Inquiries (docs/spec.md §4.5, docs/design.md §6) and lead notifications (docs/spec.md §4.6).
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'

const InquiriesController = () => import('#leads/controllers/inquiries_controller')
const DeliveriesController = () => import('#leads/controllers/deliveries_controller')
const NotificationsController = () => import('#leads/controllers/notifications_controller')

apiRoutes(() => {
  router.get('/consultas', [InquiriesController, 'index']).as('leads.inquiries.by_operator')
  router.get('/consultas/:adminmail', [InquiriesController, 'index']).as('leads.inquiries.index')
  router.post('/consultas/:adminmail', [InquiriesController, 'store']).as('leads.inquiries.store')
  router.get('/consultas/:adminmail/:sid', [InquiriesController, 'show']).as('leads.inquiries.show')
  router
    .get('/consultas/:adminmail/:sid/entregas', [DeliveriesController, 'index'])
    .as('leads.deliveries.index')
  router
    .post('/consultas/:adminmail/:sid/resendwebhook', [InquiriesController, 'resend'])
    .as('leads.inquiries.resend')
  router
    .get('/notificaciones/:adminmail', [NotificationsController, 'show'])
    .as('leads.notifications.show')
  router
    .put('/notificaciones/:adminmail', [NotificationsController, 'update'])
    .as('leads.notifications.update')
  router
    .post('/notificaciones/:adminmail/prueba', [NotificationsController, 'test'])
    .as('leads.notifications.test')
})
