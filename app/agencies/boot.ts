/*
 * The agencies module's process-wide services (start/modules.ts `boot`): one
 * AgencyDirectory per process, so its `forApp` memory is shared by every
 * request and forgotten by every write that changes what it remembers.
 */
import app from '@adonisjs/core/services/app'
import AgencyDirectory from '#agencies/services/agency_directory'
import AgencyStore from '#agencies/stores/agency_store'
import OperatorStore from '#agencies/stores/operator_store'
import PlanStore from '#agencies/stores/plan_store'

export function boot() {
  app.container.singleton(AgencyDirectory, async (resolver) => {
    const [agencies, operators, plans] = await Promise.all([
      resolver.make(AgencyStore),
      resolver.make(OperatorStore),
      resolver.make(PlanStore),
    ])
    return new AgencyDirectory(agencies, operators, plans)
  })
}
