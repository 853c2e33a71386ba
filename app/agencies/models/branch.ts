import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A branch (sucursal) of an agency; the main one comes from the invitation. */
export default class Branch extends BaseModel {
  static table = 'branches'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare agencyId: number

  @column()
  declare isMain: boolean

  @column()
  declare description: string

  @column()
  declare email: string | null

  @column()
  declare phone: string | null

  @column()
  declare phoneIsWhatsapp: boolean

  @column()
  declare regionId: number | null

  @column()
  declare cityId: number | null

  @column()
  declare address: string | null

  @column()
  declare sales: boolean

  @column()
  declare workshop: boolean

  @column()
  declare parts: boolean

  /** Times are `HH:MM:SS` strings, as PostgreSQL `time` returns them. */
  @column()
  declare workdayFrom: string | null

  @column()
  declare workdayTo: string | null

  @column()
  declare preHolidayFrom: string | null

  @column()
  declare preHolidayTo: string | null

  @column()
  declare holidayFrom: string | null

  @column()
  declare holidayTo: string | null

  @column()
  declare afterSalesLeadOwner: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
