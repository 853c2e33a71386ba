import { inject } from '@adonisjs/core'
import type { JobHandler } from '#core/jobs/types'
import Idempotency from './idempotency.js'

/** Each hour: deletes idempotency keys past their 24 hours (expired keys are never replayed anyway). */
@inject()
export default class PruneIdempotencyKeysJob implements JobHandler {
  constructor(private idempotency: Idempotency) {}

  async handle() {
    await this.idempotency.prune()
  }
}
