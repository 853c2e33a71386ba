import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class Brand extends BaseModel {
  static table = 'brands'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare codename: string

  @column()
  declare name: string

  /** Other names the brand is known by (the main codename first). */
  @column()
  declare codenames: string[]

  @column()
  declare newMarket: boolean
}
