/*
 * Links an existing agency to an app (the customer-support path of docs/spec.md §4.2
 * rule 1, `agency:grant`). Idempotent: granting again updates the flag.
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'
import type AppAgency from '#agencies/models/app_agency'
import AgencyStore from '#agencies/stores/agency_store'
import AgencyDirectory from './agency_directory.js'
import { normalizeEmail } from './emails.js'

@inject()
export default class GrantAgency {
  constructor(
    private agencies: AgencyStore,
    private directory: AgencyDirectory,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(
    adminMail: string,
    appId: number,
    receivesOtherLeads: boolean
  ): Promise<Result<AppAgency, 'agency_not_found' | 'app_not_found'>> {
    const granted = await this.unitOfWork.run(async (tx) => {
      const agency = await this.agencies.byAdminEmail(normalizeEmail(adminMail), tx)
      if (!agency) return fail('agency_not_found')
      if (!(await this.agencies.appExists(appId, tx))) return fail('app_not_found')
      return ok(await this.agencies.link(appId, agency.id, receivesOtherLeads, tx))
    })
    this.directory.forget()
    return granted
  }
}
