/*
 * Links an existing agency to an app (the customer-support path of docs/spec.md §4.2
 * rule 1, `agency:grant`). Idempotent: granting again updates the flag.
 */
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Result } from '#core/result'
import Agency from '#agencies/models/agency'
import AppAgency from '#agencies/models/app_agency'
import { forgetAgencyViews } from './agency_directory.js'
import { normalizeEmail } from './emails.js'

export default class GrantAgency {
  async execute(
    adminMail: string,
    appId: number,
    receivesOtherLeads: boolean
  ): Promise<Result<AppAgency, 'agency_not_found' | 'app_not_found'>> {
    const granted = await db.transaction(async (trx) => {
      const agency = await Agency.query({ client: trx })
        .where('admin_email', normalizeEmail(adminMail))
        .first()
      if (!agency) return fail('agency_not_found')
      const app = await trx.from('apps').where('id', appId).select('id').first()
      if (!app) return fail('app_not_found')
      const link = await AppAgency.updateOrCreate(
        { appId, agencyId: agency.id },
        { receivesOtherLeads },
        { client: trx }
      )
      return ok(link)
    })
    forgetAgencyViews()
    return granted
  }
}
