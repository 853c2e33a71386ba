import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A dealership, identified on the wire by its administrator's e-mail. */
export default class Agency extends BaseModel {
  static table = 'agencies'

  @column({ isPrimary: true })
  declare id: number

  /** Always lower-cased; the administrator operator's e-mail. */
  @column()
  declare adminEmail: string

  @column()
  declare tradeName: string

  @column()
  declare suspended: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
