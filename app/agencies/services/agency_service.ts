/*
 * Reads and edits of agencies as a calling app sees them.
 */
import db from '@adonisjs/lucid/services/db'
import Agency from '#agencies/models/agency'
import Branch from '#agencies/models/branch'
import Plan from '#agencies/models/plan'
import { suspensionEffectsOf } from '#agencies/hooks'
import { forgetAgencyViews } from './agency_directory.js'
import { normalizeEmail } from './emails.js'

export default class AgencyService {
  /** The app's agencies, by commercial name. */
  async listForApp(appId: number) {
    return Agency.query()
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('app_agencies.app_id', appId)
      .select('agencies.*')
      .orderBy('agencies.trade_name')
      .orderBy('agencies.id')
  }

  async rename(agencyId: number, tradeName: string) {
    const agency = await Agency.findOrFail(agencyId)
    agency.tradeName = tradeName
    await agency.save()
    forgetAgencyViews()
    return agency
  }

  async branches(agencyId: number) {
    return Branch.query().where('agency_id', agencyId).orderBy('is_main', 'desc').orderBy('id')
  }

  async branch(agencyId: number, branchId: number) {
    return Branch.query().where('agency_id', agencyId).where('id', branchId).first()
  }

  /** Sets the agency's plan (ace `agency:plan`). */
  async setPlan(
    adminMail: string,
    plan: { capacity: number; alta: number; media: number; baja: number }
  ) {
    return db.transaction(async (trx) => {
      const agency = await Agency.query({ client: trx })
        .where('admin_email', normalizeEmail(adminMail))
        .first()
      if (!agency) return null
      await Plan.updateOrCreate(
        { agencyId: agency.id },
        {
          capacity: plan.capacity,
          quotaHigh: plan.alta,
          quotaMedium: plan.media,
          quotaLow: plan.baja,
        },
        { client: trx }
      )
      // A smaller plan suspends the excess active listings (docs/design.md §14).
      for (const effects of await suspensionEffectsOf()) {
        await effects.capacityLowered(agency.id, plan.capacity, trx)
      }
      return agency
    })
  }
}
