/*
 * Suspends or reinstates an agency or one person (docs/design.md §7: activation of
 * listings is refused while either is suspended). Customer-support path.
 * Suspending also suspends their active listings in the same transaction
 * (the modules' share, app/agencies/hooks.ts; docs/design.md §14); reinstating
 * reactivates nothing — each app got the event and decides.
 */
import db from '@adonisjs/lucid/services/db'
import Agency from '#agencies/models/agency'
import Operator from '#agencies/models/operator'
import { suspensionEffectsOf } from '#agencies/hooks'
import { forgetAgencyViews } from './agency_directory.js'
import { normalizeEmail } from './emails.js'

export default class SetSuspension {
  async agency(adminMail: string, suspended: boolean) {
    const done = await db.transaction(async (trx) => {
      const agency = await Agency.query({ client: trx })
        .where('admin_email', normalizeEmail(adminMail))
        .forUpdate()
        .first()
      if (!agency) return false
      await agency.merge({ suspended }).save()
      if (suspended) {
        for (const effects of await suspensionEffectsOf()) {
          await effects.agencySuspended(agency.id, trx)
        }
      }
      return true
    })
    forgetAgencyViews()
    return done
  }

  async operator(email: string, suspended: boolean) {
    return db.transaction(async (trx) => {
      const operator = await Operator.query({ client: trx })
        .where('email', normalizeEmail(email))
        .forUpdate()
        .first()
      if (!operator) return false
      await operator.merge({ suspended }).save()
      if (suspended) {
        for (const effects of await suspensionEffectsOf()) {
          await effects.operatorSuspended(operator.id, trx)
        }
      }
      return true
    })
  }
}
