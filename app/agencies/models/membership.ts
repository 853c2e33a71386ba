import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A person's place in an agency (one agency at a time). */
export default class Membership extends BaseModel {
  static table = 'memberships'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare agencyId: number

  @column()
  declare operatorId: number

  @column()
  declare isAdmin: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
