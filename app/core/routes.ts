/*
 * Core routes: entry point, health, OpenAPI document and its rendered reference.
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'

const EntryPointController = () => import('#core/controllers/entry_point_controller')
const HealthController = () => import('#core/controllers/health_controller')
const DocsController = () => import('#core/controllers/docs_controller')

apiRoutes(() => {
  router.get('/', [EntryPointController, 'show'])
})

router.get('/v3/openapi.json', [DocsController, 'openapi'])
router.get('/docs', [DocsController, 'page'])
router.get('/docs/assets/:file', [DocsController, 'asset'])
router.get('/health/live', [HealthController, 'live'])
router.get('/health/ready', [HealthController, 'ready'])
router.get('/metrics', (ctx) =>
  import('#core/metrics/endpoint').then((metrics) => metrics.metricsOnMainPort(ctx))
)
