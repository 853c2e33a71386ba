import type { JobHandler } from '#core/jobs/types'
import { pruneIdempotencyKeys } from './idempotency.js'

/** Each hour: deletes idempotency keys past their 24 hours (expired keys are never replayed anyway). */
export default class PruneIdempotencyKeysJob implements JobHandler {
  async handle() {
    await pruneIdempotencyKeys()
  }
}
