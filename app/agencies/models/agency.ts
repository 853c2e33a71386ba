import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { Row } from '#core/database/row'

/** A dealership, identified on the wire by its administrator's e-mail. */
export default class Agency extends compose(BaseModel, Row) {
  static table = 'agencies'

  /** Always lower-cased; the administrator operator's e-mail. */
  @column()
  declare adminEmail: string

  @column()
  declare tradeName: string

  @column()
  declare suspended: boolean
}
