/*
 * Catalogue and reference data (docs/spec.md §4.7, docs/design.md §6). Bestmatch routes
 * come before `{id}` ones, which validate the id (a non-integer is a 400).
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'
import { readCatalogRevision } from '#catalog/controllers/catalog_response'

const BrandsController = () => import('#catalog/controllers/brands_controller')
const ModelsController = () => import('#catalog/controllers/models_controller')
const VersionsController = () => import('#catalog/controllers/versions_controller')
const PlacesController = () => import('#catalog/controllers/places_controller')
const ValueSetsController = () => import('#catalog/controllers/value_sets_controller')

apiRoutes(() => {
  router.get('/marcas', [BrandsController, 'index'])
  router.get('/marcas/bestmatch', [BrandsController, 'bestmatch'])
  router.get('/marcas/:id', [BrandsController, 'show'])
  router.get('/modelos', [ModelsController, 'index'])
  router.get('/modelos/bestmatch', [ModelsController, 'bestmatch'])
  router.get('/modelos/:id', [ModelsController, 'show'])
  router.get('/versiones', [VersionsController, 'index'])
  router.get('/versiones/bestmatch', [VersionsController, 'bestmatch'])
  router.get('/versiones/:id', [VersionsController, 'show'])
  router.get('/regiones', [PlacesController, 'regions'])
  router.get('/regiones/:id', [PlacesController, 'region'])
  router.get('/ciudades', [PlacesController, 'cities'])
  router.get('/ciudades/:id', [PlacesController, 'city'])
  router.get('/monedas', [ValueSetsController, 'currencies'])
  router.get('/monedas/:codigo', [ValueSetsController, 'currency'])
  router.get('/carrocerias', [ValueSetsController, 'bodyTypes'])
  router.get('/carrocerias/:id', [ValueSetsController, 'bodyType'])
  router.get('/propulsiones', [ValueSetsController, 'propulsions'])
  router.get('/propulsiones/:codename', [ValueSetsController, 'propulsion'])
  router.get('/transmisiones', [ValueSetsController, 'transmissions'])
  router.get('/transmisiones/:codename', [ValueSetsController, 'transmission'])
}).use(readCatalogRevision)
