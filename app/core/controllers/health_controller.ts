import type { HttpContext } from '@adonisjs/core/http'
import { healthChecks } from '#core/health/checks'

export default class HealthController {
  live({ response }: HttpContext) {
    return response.ok({ Estado: 'ok' })
  }

  async ready({ response }: HttpContext) {
    const report = await healthChecks.run()
    const body = {
      Estado: report.isHealthy ? 'ok' : 'error',
      Chequeos: Object.fromEntries(
        report.checks.map((check) => [check.name, { Estado: check.status, Mensaje: check.message }])
      ),
    }
    return report.isHealthy ? response.ok(body) : response.serviceUnavailable(body)
  }
}
