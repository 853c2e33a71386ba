import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** The agency's contracted products: active-listing capacity and quota per exposure. */
export default class Plan extends BaseModel {
  static table = 'plans'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare agencyId: number

  @column()
  declare capacity: number

  @column()
  declare quotaHigh: number

  @column()
  declare quotaMedium: number

  @column()
  declare quotaLow: number

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
