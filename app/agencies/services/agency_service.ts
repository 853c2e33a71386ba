/*
 * Reads and edits of agencies as a calling app sees them.
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import AgencyStore from '#agencies/stores/agency_store'
import BranchStore from '#agencies/stores/branch_store'
import PlanStore, { type PlanView } from '#agencies/stores/plan_store'
import { AgencyHooks } from '#agencies/hooks'
import AgencyDirectory from './agency_directory.js'
import { normalizeEmail } from './emails.js'

@inject()
export default class AgencyService {
  constructor(
    private agencies: AgencyStore,
    private branchStore: BranchStore,
    private plans: PlanStore,
    private directory: AgencyDirectory,
    private unitOfWork: UnitOfWork,
    private hooks: AgencyHooks
  ) {}

  /** The app's agencies, by commercial name. */
  async listForApp(appId: number) {
    return this.agencies.listForApp(appId)
  }

  async rename(agencyId: number, tradeName: string) {
    const agency = await this.agencies.rename(agencyId, tradeName)
    this.directory.forget()
    return agency
  }

  async branches(agencyId: number) {
    return this.branchStore.list(agencyId)
  }

  async branch(agencyId: number, branchId: number) {
    return this.branchStore.find(agencyId, branchId)
  }

  /** Sets the agency's plan (ace `agency:plan`); null when no agency has that administrator. */
  async setPlan(adminMail: string, plan: PlanView) {
    return this.unitOfWork.run(async (tx) => {
      const agency = await this.agencies.byAdminEmail(normalizeEmail(adminMail), tx)
      if (!agency) return null
      await this.plans.set(agency.id, plan, tx)
      // A smaller plan suspends the excess active listings (docs/design.md §14).
      for (const effects of await this.hooks.suspensionEffects()) {
        await effects.capacityLowered(agency.id, plan.capacity, tx)
      }
      return agency
    })
  }
}
