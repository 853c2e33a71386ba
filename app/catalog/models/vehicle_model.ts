import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A model of a brand ("Modelo" on the wire). */
export default class VehicleModel extends BaseModel {
  static table = 'vehicle_models'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare brandId: number

  @column()
  declare codename: string

  @column()
  declare name: string

  @column()
  declare bodyTypes: string[]

  @column()
  declare newMarket: boolean
}
