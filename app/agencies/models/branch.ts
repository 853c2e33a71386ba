import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { Row } from '#core/database/row'
import { Located } from './located.js'

/** A branch (sucursal) of an agency; the main one comes from the invitation. */
export default class Branch extends compose(BaseModel, Row, Located) {
  static table = 'branches'

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
}
