/*
 * HTTP kernel: the problem-document error handler and the middleware stacks.
 */
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'
import { guardNodeServerOf } from '#core/http/client_errors'

server.errorHandler(() => import('#core/http/exception_handler'))
guardNodeServerOf(server)

server.use([
  () => import('#core/http/middleware/request_log_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  () => import('#core/http/middleware/json_body_middleware'),
])

router.use([
  // The input gate runs the body parser and checks every input before auth and handlers,
  // JSON body members the operation does not define included (docs/design.md §19).
  () => import('#core/http/middleware/input_gate_middleware'),
])

export const middleware = router.named({
  authenticate: () => import('#apps/middleware/authenticate_middleware'),
  idempotent: () => import('#core/http/middleware/idempotency_middleware'),
})
