import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A first-level subdivision (province) with its ISO 3166-2 code. */
export default class Region extends BaseModel {
  static table = 'regions'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare countryCode: string

  @column()
  declare code: string

  @column()
  declare name: string
}
