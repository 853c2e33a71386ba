/*
 * HTTP kernel: the problem-document error handler and the middleware stacks.
 */
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#core/http/exception_handler'))

server.use([
  () => import('#core/http/middleware/request_log_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  () => import('#core/http/middleware/json_body_middleware'),
])

router.use([
  () => import('@adonisjs/core/bodyparser_middleware'),
  () => import('@adonisjs/auth/initialize_auth_middleware'),
])

export const middleware = router.named({
  authenticate: () => import('#core/http/middleware/authenticate_middleware'),
})
