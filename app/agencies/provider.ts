/*
 * The agencies module's provider: one AgencyDirectory per process, so its
 * `forApp` memory is shared by every request and forgotten by every write that
 * changes what it remembers; the module's queues and OpenAPI fragment. Its
 * hooks (app/agencies/hooks.ts) are filled by the listings and leads providers.
 */
import '#core/http/validation_messages'
import type { ApplicationService } from '@adonisjs/core/types'
import { Lifetimes } from '#core/lifetimes'
import ModuleRegistry from '#core/modules'
import AgencyDirectory from '#agencies/services/agency_directory'
import AgencyStore from '#agencies/stores/agency_store'
import OperatorStore from '#agencies/stores/operator_store'
import PlanStore from '#agencies/stores/plan_store'
import BranchStore from '#agencies/stores/branch_store'
import AgencyService from '#agencies/services/agency_service'
import { AgencyHooks } from '#agencies/hooks'

export default class AgenciesProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const lifetimes = Lifetimes.of(this.app.container)
    // Its memory of agencies is the process's (see above).
    lifetimes.singleton(AgencyDirectory)
    // The directory's stores keep nothing: they read through the process's pool.
    lifetimes.singleton(AgencyStore)
    lifetimes.singleton(OperatorStore)
    lifetimes.singleton(PlanStore)
    lifetimes.singleton(BranchStore)
    // What other modules ask of agencies (a listing's creation): nothing kept between calls.
    lifetimes.singleton(AgencyService)
    // Reads the registry's hooks on each call.
    lifetimes.singleton(AgencyHooks)
  }

  async boot() {
    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('agencies', {
      jobs: () => import('#agencies/jobs'),
      openapi: () => import('#agencies/openapi'),
    })
  }
}
