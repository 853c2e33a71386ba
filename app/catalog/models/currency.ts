import { BaseModel, column } from '@adonisjs/lucid/orm'

/** An ISO 4217 currency with its Spanish name. */
export default class Currency extends BaseModel {
  static table = 'currencies'

  @column({ isPrimary: true })
  declare code: string

  @column()
  declare name: string
}
