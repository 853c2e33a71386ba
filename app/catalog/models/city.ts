import { BaseModel, column } from '@adonisjs/lucid/orm'

export default class City extends BaseModel {
  static table = 'cities'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare regionId: number

  @column()
  declare name: string
}
