/*
 * Listings (docs/spec.md §4.1, docs/design.md §6) and the public photo files.
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'
import { streamsBody } from '#core/http/streamed_body'

const ListingsController = () => import('#listings/controllers/listings_controller')
const ListingPhotosController = () => import('#listings/controllers/listing_photos_controller')
const SyncsController = () => import('#listings/controllers/syncs_controller')

// A stock sync's inventory (up to 20 MiB, JSON or CSV) is read by its handler as it arrives.
streamsBody({
  method: 'POST',
  path: /^\/v3\/publicaciones\/[^/]+\/sincronizaciones\/?$/,
  types: /^(application\/json|text\/csv)$/,
  accept: 'application/json o text/csv',
})

// Its handler applies the Idempotency-Key itself, once it has read the body.
apiRoutes(
  () => {
    router
      .post('/publicaciones/:adminmail/sincronizaciones', [SyncsController, 'store'])
      .as('listing_syncs.store')
  },
  { idempotent: false }
)

apiRoutes(() => {
  // Before `:externalid`: here `sincronizaciones` is not an ExternalId.
  router
    .get('/publicaciones/:adminmail/sincronizaciones', [SyncsController, 'index'])
    .as('listing_syncs.index')
  router
    .get('/publicaciones/:adminmail/sincronizaciones/:id', [SyncsController, 'show'])
    .as('listing_syncs.show')
  router
    .get('/publicaciones/:adminmail/sincronizaciones/:id/resultados', [SyncsController, 'results'])
    .as('listing_syncs.results')
  router.post('/publicaciones/:adminmail', [ListingsController, 'store']).as('listings.store')
  router.get('/publicaciones/:adminmail', [ListingsController, 'index']).as('listings.index')
  router
    .get('/publicaciones/:adminmail/:externalid', [ListingsController, 'show'])
    .as('listings.show')
  router
    .put('/publicaciones/:adminmail/:externalid', [ListingsController, 'update'])
    .as('listings.update')
  router
    .patch('/publicaciones/:adminmail/:externalid', [ListingsController, 'patch'])
    .as('listings.patch')
  router
    .delete('/publicaciones/:adminmail/:externalid', [ListingsController, 'archive'])
    .as('listings.archive')
  router
    .patch('/publicaciones/:adminmail/:externalid/suspender', [ListingsController, 'suspend'])
    .as('listings.suspend')
  router
    .patch('/publicaciones/:adminmail/:externalid/activar', [ListingsController, 'activate'])
    .as('listings.activate')
  router
    .get('/publicaciones/:adminmail/:externalid/fotos', [ListingPhotosController, 'index'])
    .as('listing_photos.index')
})

// Outside /v3 and without credentials: photo URLs are embedded in public pages.
router.get('/fotos/:listing/:file', [ListingPhotosController, 'show']).as('listing_photos.show')
