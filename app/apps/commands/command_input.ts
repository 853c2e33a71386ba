import type { ApplicationService } from '@adonisjs/core/types'

/** `APP_ID` / `TOKEN_ID` of the apps commands: a positive integer of the id columns, else null. */
export function idOf(value: string | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null
  const id = Number(value)
  return id <= 2_147_483_647 ? id : null
}

/**
 * The audit lines the apps services log (ids only) go to stderr while a
 * command runs: its stdout is its output (`--json`: exactly one JSON document).
 */
export async function auditToStderr(app: ApplicationService) {
  const { Logger, destination } = await import('@adonisjs/core/logger')
  const config = app.config.get<any>('logger')
  const options = config.loggers[config.default]
  app.container.bindValue(
    Logger,
    new Logger({ ...options, destination: destination({ dest: 2, sync: true }) })
  )
}
