import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'

/** An agency exists for an app iff this link exists (docs/design.md §3). */
export default class AppAgency extends compose(BaseModel, AppScoped) {
  static table = 'app_agencies'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare agencyId: number

  /** Catalogue inquiries and others without a listing of this app reach it too. */
  @column()
  declare receivesOtherLeads: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
