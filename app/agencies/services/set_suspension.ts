/*
 * Suspends or reinstates an agency or one person (docs/design.md §7: activation of
 * listings is refused while either is suspended). Customer-support path.
 * Suspending also suspends their active listings in the same transaction
 * (the modules' share, app/agencies/hooks.ts; docs/design.md §14); reinstating
 * reactivates nothing — each app got the event and decides.
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import AgencyStore from '#agencies/stores/agency_store'
import OperatorStore from '#agencies/stores/operator_store'
import { AgencyHooks, type SuspensionEffects } from '#agencies/hooks'
import AgencyDirectory from './agency_directory.js'
import { normalizeEmail } from './emails.js'

@inject()
export default class SetSuspension {
  constructor(
    private agencies: AgencyStore,
    private operators: OperatorStore,
    private directory: AgencyDirectory,
    private unitOfWork: UnitOfWork,
    private hooks: AgencyHooks
  ) {}

  async agency(adminMail: string, suspended: boolean) {
    const done = await this.unitOfWork.run(async (tx) => {
      const agency = await this.agencies.byAdminEmail(normalizeEmail(adminMail), tx, {
        forUpdate: true,
      })
      if (!agency) return false
      await this.agencies.setSuspended(agency, suspended, tx)
      if (suspended)
        await this.#suspendWhatIsTheirs((effects) => effects.agencySuspended(agency.id, tx))
      return true
    })
    this.directory.forget()
    return done
  }

  async operator(email: string, suspended: boolean) {
    return this.unitOfWork.run(async (tx) => {
      const operator = await this.operators.byEmail(normalizeEmail(email), tx, { forUpdate: true })
      if (!operator) return false
      await this.operators.setSuspended(operator, suspended, tx)
      if (suspended)
        await this.#suspendWhatIsTheirs((effects) => effects.operatorSuspended(operator.id, tx))
      return true
    })
  }

  /** The other modules' share of a suspension (their active listings), in registration order. */
  async #suspendWhatIsTheirs(effect: (effects: SuspensionEffects) => Promise<unknown>) {
    for (const effects of await this.hooks.suspensionEffects()) await effect(effects)
  }
}
