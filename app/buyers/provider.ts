/*
 * The buyers module's provider: its queues, OpenAPI fragment, and the start
 * step that adds demo data to the apps module's demo app (after it, README,
 * "the first five minutes"). Nothing of the module lives per process.
 */
import type { ApplicationService } from '@adonisjs/core/types'
import ModuleRegistry from '#core/modules'

export default class BuyersProvider {
  constructor(protected app: ApplicationService) {}

  async boot() {
    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('buyers', {
      jobs: () => import('#buyers/jobs'),
      openapi: () => import('#buyers/openapi'),
      start: () => import('#buyers/demo'),
    })
  }
}
